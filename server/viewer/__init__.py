"""The viewer: worlds, plans and evaluation reports as local web pages (reading, charts, site, command)."""
