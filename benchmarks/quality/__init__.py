"""Quality of the computer players, measured double-dummy against par."""
