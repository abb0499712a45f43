// Entry point of the e2e host: a real VS Code (code-server) driven by Debian's Chromium.
export * from './launcher';
export * from './ui';
