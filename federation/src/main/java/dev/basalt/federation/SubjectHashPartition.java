package dev.basalt.federation;

import java.nio.charset.StandardCharsets;

/**
 * The partition function of a Basalt federation: a statement belongs to the shard chosen by the
 * hash of its <em>subject</em>, whatever its predicate, object or graph. All statements of one
 * subject therefore live on one shard, so a star-shaped pattern around one subject (the common
 * case: a product with its label, type and features) finds all its triples on one member.
 *
 * <p>The function, for anyone who needs to reproduce it (a router, another language):
 * <pre>
 *   key   = the subject's IRI string (no angle brackets, escapes resolved), or "_:" + blank node label
 *   h     = FNV-1a 64 over the UTF-8 bytes of key (offset basis 0xcbf29ce484222325, prime 0x100000001b3)
 *   h     = MurmurHash3's 64-bit finalizer (fmix64) of h
 *   shard = h mod N, with h read as an unsigned 64-bit number
 * </pre>
 * Named graphs do not change the shard: a quad goes where its subject goes, so a named graph is
 * spread over the shards and a {@code GRAPH} pattern is answered by all members together.
 *
 * <p>Immutable and thread-safe. Changing N moves most subjects: a federation is re-partitioned by
 * loading its data again into N new members.
 */
public final class SubjectHashPartition {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final int shards;

    public SubjectHashPartition(int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("a federation needs at least one shard, got " + shards);
        }
        this.shards = shards;
    }

    public int shards() {
        return shards;
    }

    /** The shard of a subject given as its key: an IRI string, or "_:" followed by a blank node label. */
    public int shardOf(String subjectKey) {
        byte[] bytes = subjectKey.getBytes(StandardCharsets.UTF_8);
        return shardOfUtf8(bytes, 0, bytes.length);
    }

    /** The shard of a subject key given as UTF-8 bytes {@code key[from, to)}. */
    public int shardOfUtf8(byte[] key, int from, int to) {
        long h = FNV_OFFSET;
        for (int i = from; i < to; i++) {
            h ^= key[i] & 0xff;
            h *= FNV_PRIME;
        }
        return (int) Long.remainderUnsigned(fmix64(h), shards);
    }

    /** MurmurHash3's finalizer: spreads FNV's weak low bits so that small N divide evenly. */
    static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb93fe53ec1d4L;
        h ^= h >>> 33;
        return h;
    }
}
