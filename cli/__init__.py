"""agon's command line (typer).  One module per command; no game logic here."""
