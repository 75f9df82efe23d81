package dev.basalt.sail.ops;

/**
 * Operations of an open Basalt store on the platform MBean server, as
 * {@code dev.basalt:type=Store,store="<data directory>"} (jconsole, VisualVM, or
 * {@code basalt backup --jmx HOST:PORT}, {@code basalt compact --jmx HOST:PORT}). JMX calls it on its own threads, concurrently with the
 * store's users: implementations must be thread-safe.
 */
public interface StoreOperationsMXBean {
    /** The newest commit counter. */
    long getCommitCounter();

    /** Bytes of the journal file. */
    long getFileBytes();

    /** Readers (connections, results, read-as-of connections) pinning a commit point now. */
    int getOpenReaders();

    /**
     * Writes a verified compact copy of the newest commit point to the new file {@code targetFile}
     * (a path on the server's machine) while the store keeps serving reads and writes; returns what
     * the backup holds (its commit point, size and trees).
     */
    String backup(String targetFile);

    /** As {@link #backup(String)}, of the retained commit point {@code commitCounter}. */
    String backupCommit(String targetFile, long commitCounter);

    /**
     * Compacts the store online (it keeps serving reads and writes) and returns the report: file
     * size before and after, live bytes, the longest writer pause, and what readers' pins or history
     * retention kept from being released.
     */
    String compact();

    /**
     * Reads a sample of the store's pages and terms as cache misses read them, without caching them, so that the JIT
     * compiles the miss path before clients' queries need it: for a server to call after its warm-ups, whose queries
     * all hit a prewarmed store's caches. Returns what it read. Only reads.
     */
    String rehearseColdReads();
}
