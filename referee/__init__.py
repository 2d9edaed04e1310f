"""The referee: card model, rules engines and judging (pure), and the services that drive them."""
