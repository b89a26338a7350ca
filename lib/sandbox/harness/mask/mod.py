# composer-lab: an installed copy of the task's project was here; it is masked for this task.
raise ImportError("composer-lab: the installed copy of this module is masked for this task (the repo's own code is under /work)")
