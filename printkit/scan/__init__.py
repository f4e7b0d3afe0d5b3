"""Reading filled-in map sheets back from photos and scans (``printkit scan``).

The only package that imports OpenCV (``cv2``) and numpy, both from the
optional ``scan`` extra; only the scan command imports it.
"""
