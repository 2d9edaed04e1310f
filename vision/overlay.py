"""The picture ``cardtable vision calibrate`` writes: the frame with the markers found, the table square, the seat
triangles (S, E, N, W) and the cards read, so a person can check a table before play."""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibrate import Calibration
from vision.read import Reading

SEAT_COLOURS = {"S": (60, 60, 230), "E": (60, 200, 60), "N": (230, 120, 40), "W": (40, 200, 230)}  # BGR
TRIANGLES = {"S": [(0, 1), (1, 1), (0.5, 0.5)], "E": [(1, 0), (1, 1), (0.5, 0.5)],
             "N": [(0, 0), (1, 0), (0.5, 0.5)], "W": [(0, 0), (0, 1), (0.5, 0.5)]}
LABEL_AT = {"S": (0.5, 0.9), "E": (0.9, 0.5), "N": (0.5, 0.1), "W": (0.1, 0.5)}


def draw(image: np.ndarray, calibration: Calibration, reading: Reading) -> np.ndarray:
    out = image.copy()
    tint = image.copy()
    for seat, tri in TRIANGLES.items():
        pts = np.int32(np.round(calibration.to_image(np.array(tri))))
        cv2.fillConvexPoly(tint, pts, SEAT_COLOURS[seat])
    out = cv2.addWeighted(out, 0.7, tint, 0.3, 0)
    square = np.int32(np.round(calibration.to_image(np.array([(0, 0), (1, 0), (1, 1), (0, 1)]))))
    cv2.polylines(out, [square], True, (255, 255, 255), 2)
    for a, b in (((0, 0), (1, 1)), ((1, 0), (0, 1))):
        p = np.int32(np.round(calibration.to_image(np.array([a, b]))))
        cv2.line(out, tuple(p[0]), tuple(p[1]), (255, 255, 255), 1)
    for marker_id, (x, y) in calibration.markers.items():
        cv2.circle(out, (int(x), int(y)), 8, (0, 0, 255), 2)
        cv2.putText(out, str(marker_id), (int(x) + 10, int(y) - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
    for seat, at in LABEL_AT.items():
        x, y = calibration.to_image(np.array([at]))[0]
        n = len(reading.seats()[seat])
        cv2.putText(out, f"{seat} ({n})", (int(x) - 30, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 3)
    for card in reading.cards:
        x, y = calibration.to_image(np.array([card.centre]))[0]
        colour = (0, 255, 0) if card.confidence >= 0.9 and not card.conflict else (0, 165, 255)
        cv2.circle(out, (int(x), int(y)), 4, colour, -1)
        cv2.putText(out, card.name, (int(x) + 5, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)
    return out
