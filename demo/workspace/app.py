"""A Flask-style view using the Unleash Python SDK (UnleashClient)."""
from UnleashClient import UnleashClient

client = UnleashClient(url="http://localhost:4242/api", app_name="storefront")


def index(request):
    if client.is_enabled("maintenance-mode"):
        return "We are back soon."
    if client.is_enabled("new-checkout-flow", {"userId": request.user_id}):
        return "one-page checkout"
    return "classic checkout"
