"""Calibration: what the camera is and where the table is.

* :mod:`calibration.boards`: the geometry of everything printed (markers, boards, targets), the
  one place readers look up where a marker or a board square is;
* :mod:`calibration.targets`: the printable sheets, at true scale, as PNG and PDF;
* :mod:`calibration.intrinsics`: the lens (focal length, distortion) from ChArUco or chessboard
  images;
* :mod:`calibration.markers` and :mod:`calibration.pose`: the table (and printed boards) located
  from their ArUco markers, with intrinsics estimated from the markers when no lens calibration
  was made;
* :mod:`calibration.store`: the calibration file later runs load.

Like the rest of *see*, it knows optics and pieces, never rules.
"""
