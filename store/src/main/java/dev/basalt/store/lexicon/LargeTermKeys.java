package dev.basalt.store.lexicon;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * TERM2ID keys of terms whose {@link TermKeys} encoding is longer than {@link #THRESHOLD} bytes.
 * Such a term is keyed by a fixed-size digest, so its text is stored once: in ID2TERM, usually
 * compressed ({@link TermValues}), where the B+tree may store it out of page. The threshold
 * trades a read of ID2TERM on every lookup of a long term by value (rare: query constants and
 * repeated long literals in a load, both behind the value → id cache) for TERM2ID pages that hold
 * no long text; the measured figures are in docs/benchmarks-dictionary.md.
 *
 * <pre>
 *  byte 0      tag of the full key | 0x80   (0x81..0x87; full keys never start with a set high bit)
 *  bytes 1..16 first 16 bytes of SHA-256 over the whole full key
 *  bytes 17..20 collision ordinal, unsigned big-endian
 * </pre>
 *
 * <p>Collision protocol (the lexicon implements it; the probability of ever needing it with a
 * 128-bit digest is negligible, but correctness does not rest on that):
 * <ul>
 * <li><b>Lookup:</b> scan TERM2ID over the prefix {@link #prefix(byte[])}; for each entry, read
 * ID2TERM at its id and compare the full key it restores with the wanted one byte for byte. A match
 * gives the id; none means the term is absent.
 * <li><b>Insert</b> (writer only, after a failed lookup): the new key is {@link #key(byte[], int)}
 * with ordinal = number of entries found under the prefix. Ordinals are never reused, and
 * dictionary terms are never deleted, so the entries under one prefix are 0..k-1.
 * </ul>
 * SHA-256 rather than a faster non-cryptographic hash: it is specified for all time (the digest
 * is part of the format), and data crafted to collide cannot make lookups degrade.
 *
 * <p>Stateless; any thread may call it (each digest uses its own {@link MessageDigest}).
 */
public final class LargeTermKeys {
    /** Full keys longer than this many bytes get a hashed TERM2ID key. */
    public static final int THRESHOLD = 128;
    public static final int DIGEST_BYTES = 16;
    public static final int PREFIX_LENGTH = 1 + DIGEST_BYTES;
    public static final int KEY_LENGTH = PREFIX_LENGTH + 4;
    static final int HASHED_FLAG = 0x80;

    private LargeTermKeys() {
    }

    public static boolean isLarge(byte[] fullKey) {
        return fullKey.length > THRESHOLD;
    }

    /** True for a hashed TERM2ID key (as opposed to a full term key). */
    public static boolean isHashed(byte[] term2IdKey) {
        return term2IdKey.length == KEY_LENGTH && (term2IdKey[0] & HASHED_FLAG) != 0;
    }

    /** The TERM2ID key of a term as first inserted: the full key, or its hashed key with ordinal 0. */
    public static byte[] term2IdKey(byte[] fullKey) {
        return isLarge(fullKey) ? key(fullKey, 0) : fullKey;
    }

    /** Tag and digest: all hashed keys of terms with this digest start with these bytes. */
    public static byte[] prefix(byte[] fullKey) {
        byte[] prefix = new byte[PREFIX_LENGTH];
        prefix[0] = (byte) (fullKey[0] | HASHED_FLAG);
        System.arraycopy(sha256(fullKey), 0, prefix, 1, DIGEST_BYTES);
        return prefix;
    }

    public static byte[] key(byte[] fullKey, int ordinal) {
        return withOrdinal(prefix(fullKey), ordinal);
    }

    /** The hashed key of a {@link #prefix} and a collision ordinal. */
    public static byte[] withOrdinal(byte[] prefix, int ordinal) {
        if (ordinal < 0) {
            throw new IllegalArgumentException("negative collision ordinal " + ordinal);
        }
        byte[] key = Arrays.copyOf(prefix, KEY_LENGTH);
        for (int i = 0; i < 4; i++) {
            key[PREFIX_LENGTH + i] = (byte) (ordinal >>> (24 - 8 * i));
        }
        return key;
    }

    public static int ordinal(byte[] hashedKey) {
        if (!isHashed(hashedKey)) {
            throw new IllegalArgumentException("not a hashed term key of " + hashedKey.length + " bytes");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (hashedKey[PREFIX_LENGTH + i] & 0xFF);
        }
        return v;
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }
}
