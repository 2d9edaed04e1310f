"""What the climbing games share (Guandan 掼蛋, San Da Yi 三打一): combinations and their readings.

Pure functions over immutable values; the games' own rules live in ``referee.guandan``
and ``referee.sandayi``, and every setting in the rulebook files.
"""
