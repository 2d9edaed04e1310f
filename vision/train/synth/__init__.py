"""The scene renderer: photo-like frames of a table from a description (cards per seat in rows, fans and piles,
markers, felt, camera tilt and rotation, light, blur, noise, JPEG, hands over the cards), with the truth."""
