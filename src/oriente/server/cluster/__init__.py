"""Many processes, one site: leases, forwarding, failover and drain over a
shared PostgreSQL store and a Redis bus (`node`, `bus`)."""
