"""For the press: print-service outputs (`ppgen build --for`, `ppgen export png --for`) and the
preflight that checks any PDF (`ppgen preflight`).

    order    build what a service asks for: one PDF/X per deck, or pictures per face; what to upload
    scan     what a PDF's pages draw, read with pikepdf (colours, images, text, fonts, boxes)
    preflight  a service's profile and the checks over a scan: every problem with its page
"""
