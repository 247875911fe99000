"""Every game's home: one package per game (its pure rules, its port, its
reference bots, its narrator), beside `kit`, what they share. The table
server (`oriente.server`) knows a game only through its port.

Each package here may declare `LEGACY`, the old module names it took over
(`oriente.legacy` keeps them importable for one release)."""
