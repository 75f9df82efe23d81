package dev.basalt.store.btree;

/**
 * The writer's dirty pages in order of last use, eldest first, as an intrusive doubly linked list
 * (no allocation per touch). When the tree holds more dirty pages than its capacity, the eldest
 * page that has no dirty children is coded and written; pages in use stay in memory, so a hot page
 * is written once per commit rather than once per change. Writer thread only.
 */
final class WriteRetentionQueue {
    private DirtyNode eldest;
    private DirtyNode newest;
    private int size;

    int size() {
        return size;
    }

    /** Adds {@code node} as the newest, or moves it there if it is already queued. */
    void touch(DirtyNode node) {
        if (node.queued) {
            if (node == newest) {
                return;
            }
            unlink(node);
        }
        node.older = newest;
        node.newer = null;
        if (newest != null) {
            newest.newer = node;
        } else {
            eldest = node;
        }
        newest = node;
        node.queued = true;
        size++;
    }

    void remove(DirtyNode node) {
        if (node.queued) {
            unlink(node);
        }
    }

    private void unlink(DirtyNode node) {
        if (node.older != null) {
            node.older.newer = node.newer;
        } else {
            eldest = node.newer;
        }
        if (node.newer != null) {
            node.newer.older = node.older;
        } else {
            newest = node.older;
        }
        node.older = null;
        node.newer = null;
        node.queued = false;
        size--;
    }

    /** The least recently used page that can be written now (no dirty children), or null. */
    DirtyNode eldestWritable() {
        for (DirtyNode n = eldest; n != null; n = n.newer) {
            if (n.isWritable()) {
                return n;
            }
        }
        return null;
    }

    void clear() {
        DirtyNode n = eldest;
        while (n != null) {
            DirtyNode next = n.newer;
            n.older = null;
            n.newer = null;
            n.queued = false;
            n = next;
        }
        eldest = null;
        newest = null;
        size = 0;
    }
}
