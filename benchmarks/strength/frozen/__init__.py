"""Frozen copies of bots: the yardsticks benchmarks measure today's bots against."""
