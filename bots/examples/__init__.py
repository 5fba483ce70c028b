"""Example bots for docs/bots.md: copy one and make it yours."""
