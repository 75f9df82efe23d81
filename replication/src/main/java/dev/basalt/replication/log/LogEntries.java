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
 * drops the pieces staged so far. This class splits an encoded change set into such entries and reads
 * their headers.
 *
 * <p>Stateless; any thread.
 */
public final class LogEntries {
    public static final byte PART = 0x10;
    public static final byte COMMIT = 0x11;
    public static final byte ABORT = 0x12;
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

    /**
     * Splits an encoded change set into parts of at most {@code pieceBytes} payload bytes and a final
     * commit carrying the rest; the entries are meant to be committed in this order.
     */
    public static List<byte[]> split(byte[] changeSet, long transaction, int pieceBytes) {
        if (pieceBytes <= 0) {
            throw new IllegalArgumentException("piece size must be positive: " + pieceBytes);
        }
        List<byte[]> entries = new ArrayList<>();
        int parts = (changeSet.length - 1) / pieceBytes;
        for (int i = 0; i < parts; i++) {
            entries.add(piece(PART, transaction, i, changeSet, i * pieceBytes, pieceBytes));
        }
        entries.add(piece(COMMIT, transaction, parts, changeSet, parts * pieceBytes, changeSet.length - parts * pieceBytes));
        return entries;
    }

    public static byte[] abort(long transaction) {
        return ByteBuffer.allocate(HEADER).put(ABORT).putLong(transaction).array();
    }

    private static byte[] piece(byte kind, long transaction, int number, byte[] data, int from, int length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(HEADER + 5 + length);
        out.write(kind);
        out.writeBytes(ByteBuffer.allocate(8).putLong(transaction).array());
        int n = number;
        while ((n & ~0x7F) != 0) {
            out.write((n & 0x7F) | 0x80);
            n >>>= 7;
        }
        out.write(n);
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
        int number = 0;
        int shift = 0;
        int pos = HEADER;
        while (true) {
            if (pos >= entry.length || shift > 28) {
                throw new IllegalArgumentException("transaction piece: bad part number at byte " + pos);
            }
            byte b = entry[pos++];
            number |= (b & 0x7F) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                break;
            }
        }
        return new Piece(entry[0], transaction, number, Arrays.copyOfRange(entry, pos, entry.length));
    }
}
