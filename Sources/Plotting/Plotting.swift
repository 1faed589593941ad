// Plotting: see README.md for this target's role.
