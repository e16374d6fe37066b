"""ncu's source page (`ncu -i REP --page source --csv --print-source sass`) split per kernel."""
import csv


def kernels(path):
    """[(kernel name, header row, instruction rows)] in the file's order."""
    out, cur = [], None
    for r in csv.reader(open(path)):
        if r and r[0] == 'Kernel Name':
            cur = [r[1], None, []]
            out.append(cur)
        elif r and r[0] == 'Address':
            cur[1] = r
        elif cur and r:
            cur[2].append(r)
    return out
