package main

import (
	"log"

	"github.com/Unleash/unleash-client-go/v4"
)

type flags struct{ client *unleash.Client }

func (f flags) verbose() bool {
	// Rest the mouse on the flag name to see where verbose logging is on.
	return f.client.IsEnabled("ops-log-level")
}

func main() {
	client, err := unleash.NewClient(unleash.WithUrl("http://localhost:4242/api"), unleash.WithAppName("checkout-worker"))
	if err != nil {
		log.Fatal(err)
	}
	f := flags{client: client}
	if f.verbose() {
		log.Println("verbose logging on")
	}
	if client.IsEnabled("admin-panel") {
		log.Println("admin panel on")
	}
}
