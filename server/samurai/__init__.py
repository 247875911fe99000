"""The rules of Knizia's Samurai as a pure, deterministic state machine."""
