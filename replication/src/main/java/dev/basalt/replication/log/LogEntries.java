package dev.basalt.replication.log;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The kinds of replication log entry (docs/FORMAT.md, "Replication log entries"), told apart by their
 * first byte: a whole change set ({@link ChangeSetCodec}, first byte its version, {@code 1}), or one
 * piece of a transaction too large for one entry: a {@link #PART} of its encoded change set, the
 * {@link #COMMIT} that carries the last piece and applies them all at once, or an {@link #ABORT} that
 * drops the pieces staged so far; or a {@link #GROUP} of whole change sets of concurrent transactions,
 * applied one after the other (group commit); or an {@link #UPLOAD}: a transaction holding an
 * N-Triples or N-Quads upload as its compressed bytes ({@link UploadEntry}; {@link #UPLOAD_STREAMED} in
 * its second version). This class splits an encoded change set into such
 * entries, joins change sets into a group, and reads their headers.
 *
 * <p>Stateless; any thread.
 */
public final class LogEntries {
    public static final byte PART = 0x10;
    public static final byte COMMIT = 0x11;
    public static final byte ABORT = 0x12;
    public static final byte GROUP = 0x13;
    /** A bulk upload's bytes ({@link UploadEntry}); whole or as the payload of split pieces. */
    public static final byte UPLOAD = 0x14;
    /**
     * A bulk upload's bytes, version 2 ({@link UploadEntry}): the sizes and the change set after the
     * upload at the end, so its first pieces can be sent while the upload is still read.
     */
    public static final byte UPLOAD_STREAMED = 0x15;
    /** Kind byte and transaction id. */
    static final int HEADER = 1 + 8;

    private LogEntries() {
    }

    /** One decoded piece: kind, transaction id, part number (for a commit: the number of parts before it), payload. */
    public record Piece(byte kind, long transaction, int number, byte[] payload) {
    }

    /** True if the entry is a piece of a split transaction rather than a whole change set. */
    public static boolean isPiece(byte[] entry) {
        return entry.length > 0 && (entry[0] == PART || entry[0] == COMMIT || entry[0] == ABORT);
    }

    /** True if the entry is a group of whole change sets. */
    public static boolean isGroup(byte[] entry) {
        return entry.length > 0 && entry[0] == GROUP;
    }

    /** The bytes of a group entry holding the encoded change sets {@code members}, in order. */
    public static byte[] group(List<byte[]> members) {
        int size = 1 + 5;
        for (byte[] m : members) {
            size += 5 + m.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.write(GROUP);
        writeVarint(out, members.size());
        for (byte[] m : members) {
            writeVarint(out, m.length);
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    /** The encoded change sets of a group entry, in order; refuses a truncated or malformed one. */
    public static List<byte[]> members(byte[] entry) {
        if (!isGroup(entry)) {
            throw new IllegalArgumentException("log entry kind " + (entry.length == 0 ? "(empty)" : entry[0])
                    + " is not a group");
        }
        int[] pos = {1};
        int count = readVarint(entry, pos);
        List<byte[]> members = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = readVarint(entry, pos);
            if (length > entry.length - pos[0]) {
                throw new IllegalArgumentException("group entry: change set " + i + " of " + length
                        + " bytes at byte " + pos[0] + " runs past the entry's end (" + entry.length + " bytes)");
            }
            members.add(Arrays.copyOfRange(entry, pos[0], pos[0] + length));
            pos[0] += length;
        }
        if (pos[0] != entry.length) {
            throw new IllegalArgumentException("group entry: " + (entry.length - pos[0])
                    + " bytes after its last change set, at byte " + pos[0]);
        }
        return members;
    }

    static void writeVarint(ByteArrayOutputStream out, int value) {
        int n = value;
        while ((n & ~0x7F) != 0) {
            out.write((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out.write(n);
    }

    /** Reads an unsigned varint at {@code pos[0]}, advancing it. */
    static int readVarint(byte[] entry, int[] pos) {
        int value = 0;
        int shift = 0;
        while (true) {
            if (pos[0] >= entry.length || shift > 28) {
                throw new IllegalArgumentException("log entry: bad varint at byte " + pos[0]);
            }
            byte b = entry[pos[0]++];
            value |= (b & 0x7F) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }

    /**
     * Splits an encoded change set into parts of at most {@code pieceBytes} payload bytes and a final
     * commit carrying the rest; the entries are meant to be committed in this order.
     */
    public static List<byte[]> split(byte[] changeSet, long transaction, int pieceBytes) {
        return split(changeSet, transaction, 0, pieceBytes);
    }

    /**
     * Splits the rest of a transaction whose first {@code partsSent} parts were sent already: its
     * remaining bytes {@code rest} go in parts numbered from {@code partsSent} and a final commit.
     */
    public static List<byte[]> split(byte[] rest, long transaction, int partsSent, int pieceBytes) {
        if (pieceBytes <= 0) {
            throw new IllegalArgumentException("piece size must be positive: " + pieceBytes);
        }
        List<byte[]> entries = new ArrayList<>();
        int parts = rest.length == 0 ? 0 : (rest.length - 1) / pieceBytes;
        for (int i = 0; i < parts; i++) {
            entries.add(piece(PART, transaction, partsSent + i, rest, i * pieceBytes, pieceBytes));
        }
        entries.add(piece(COMMIT, transaction, partsSent + parts, rest, parts * pieceBytes, rest.length - parts * pieceBytes));
        return entries;
    }

    /** The {@code PART} entry numbered {@code number} of {@code transaction}, holding {@code length} bytes of {@code data}. */
    public static byte[] part(long transaction, int number, byte[] data, int from, int length) {
        return piece(PART, transaction, number, data, from, length);
    }

    public static byte[] abort(long transaction) {
        return ByteBuffer.allocate(HEADER).put(ABORT).putLong(transaction).array();
    }

    private static byte[] piece(byte kind, long transaction, int number, byte[] data, int from, int length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEADER + 5 + length);
        out.write(kind);
        out.writeBytes(ByteBuffer.allocate(8).putLong(transaction).array());
        writeVarint(out, number);
        out.write(data, from, length);
        return out.toByteArray();
    }

    /** Reads a piece's header; refuses a truncated one or an unknown kind, naming what is wrong. */
    public static Piece read(byte[] entry) {
        if (!isPiece(entry)) {
            throw new IllegalArgumentException("log entry kind " + (entry.length == 0 ? "(empty)" : entry[0])
                    + " is not a transaction piece");
        }
        if (entry.length < HEADER) {
            throw new IllegalArgumentException("transaction piece of " + entry.length + " bytes ends in its header");
        }
        long transaction = ByteBuffer.wrap(entry, 1, 8).getLong();
        if (entry[0] == ABORT) {
            return new Piece(ABORT, transaction, 0, new byte[0]);
        }
        int[] pos = {HEADER};
        int number;
        try {
            number = readVarint(entry, pos);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("transaction piece: bad part number at byte " + pos[0], e);
        }
        return new Piece(entry[0], transaction, number, Arrays.copyOfRange(entry, pos[0], entry.length));
    }
}
