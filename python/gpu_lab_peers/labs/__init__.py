"""The course's code, one file a lab, written the way its notebooks write it; each workload is a function the
worker times, named by its series' code."""
