package dev.basalt.replication.log;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RioSetting;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;
import org.eclipse.rdf4j.rio.helpers.NTriplesParserSettings;

/**
 * A transaction that holds an N-Triples or N-Quads upload (docs/FORMAT.md 6.5, 6.6): the upload travels
 * as its own bytes, deflate-compressed, with what every replica needs to load it alike through the
 * store's bulk loader (format, base IRI, the graph given for all statements, the parser checks that
 * only warn, and the blank node scope that makes every replica's blank nodes the same), then the
 * change set of the transaction's writes that followed the upload (6.1; applied after it). Much
 * smaller on the wire than the upload's statements as a change set, and each replica parses it
 * with the bulk loader's parallel parser instead of decoding a million statement objects.
 *
 * <p>Written as version 2 (6.6): a header of what is known before the body is read, the compressed
 * upload, and a trailer of what is known only at commit (the upload's length, the change set after
 * it), so the node taking an upload sends the entry's first pieces while it still reads the body
 * ({@code UploadStream}). Version 1 entries (6.5, the sizes and the change set in the header) are
 * still read.
 *
 * <p>Immutable once built; {@link #compress}, {@link #encode} and {@link #decode} are stateless and
 * safe from any thread.
 */
public record UploadEntry(long scope, RDFFormat format, String baseIri, Resource context, Set<String> nonFatalErrors,
                          long rawBytes, byte[] compressed, byte[] changeSetAfter) {
    static final byte NTRIPLES = 1;
    static final byte NQUADS = 2;
    static final byte NO_CONTEXT = 0;
    static final byte IRI_CONTEXT = 1;
    static final byte BNODE_CONTEXT = 2;
    /** A version 2 trailer's fixed part: the change set's length (4 bytes) and the upload's (8). */
    static final int TRAILER_FIXED = 4 + 8;

    /** The Rio settings a node may name as non-fatal, by key. */
    private static final Map<String, RioSetting<?>> SETTINGS = settings();

    /** A copy with {@code changeSet} (6.1, or empty for none) as the writes after the upload. */
    public UploadEntry withChangeSetAfter(byte[] changeSet) {
        return new UploadEntry(scope, format, baseIri, context, nonFatalErrors, rawBytes, compressed, changeSet);
    }

    /** The blank node scope the bulk loader is given: the same on every replica. */
    public String blankNodeScope() {
        return "u" + Long.toHexString(scope);
    }

    /** The upload's bytes, decompressed as they are read. */
    public InputStream open() {
        return new InflaterInputStream(new ByteArrayInputStream(compressed), new java.util.zip.Inflater(), 1 << 16);
    }

    /** The non-fatal parser checks this entry names, those this node knows (every one a node writes). */
    public Set<RioSetting<?>> nonFatalSettings() {
        Set<RioSetting<?>> out = new HashSet<>();
        for (String key : nonFatalErrors) {
            RioSetting<?> s = SETTINGS.get(key);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /** Keys of the settings in {@code errors} that a node can name in an entry. */
    public static Set<String> keys(Set<RioSetting<?>> errors) {
        Set<String> out = new java.util.TreeSet<>();
        for (RioSetting<?> s : errors) {
            if (SETTINGS.containsKey(s.getKey())) {
                out.add(s.getKey());
            }
        }
        return out;
    }

    /**
     * Reads {@code data} to its end, compressing it (deflate at its fastest level: compressing costs
     * the leader about a third of what loading the upload does, and ships an eighth of the bytes).
     *
     * @param head bytes already read from the front of the upload
     * @return the compressed bytes and, in {@code raw[0]}, how many bytes were read
     */
    public static byte[] compress(byte[] head, InputStream data, long[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1 << 16, head.length / 4));
        raw[0] = compress(head, data, out);
        return out.toByteArray();
    }

    /**
     * Reads {@code data} to its end, compressing it into {@code sink} as it goes (as {@link
     * #compress(byte[], InputStream, long[])}); returns how many bytes were read. {@code sink} is
     * not closed.
     */
    public static long compress(byte[] head, InputStream data, java.io.OutputStream sink) throws IOException {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            DeflaterOutputStream z = new DeflaterOutputStream(sink, deflater, 1 << 16);
            z.write(head);
            long raw = head.length + data.transferTo(z);
            z.finish();
            return raw;
        } finally {
            deflater.end();
        }
    }

    /**
     * The entry's bytes, version 2 (docs/FORMAT.md 6.6): {@link #header()}, the compressed upload,
     * then {@link #trailer()}.
     */
    public byte[] encode() {
        byte[] header = header();
        byte[] trailer = trailer();
        ByteArrayOutputStream out = new ByteArrayOutputStream(header.length + compressed.length + trailer.length);
        out.writeBytes(header);
        out.writeBytes(compressed);
        out.writeBytes(trailer);
        return out.toByteArray();
    }

    /**
     * The front of a version 2 entry, up to the compressed upload: everything known before the
     * upload's body is read, so that a node can send the entry's first pieces while it still reads.
     */
    public byte[] header() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        out.write(LogEntries.UPLOAD_STREAMED);
        out.writeBytes(ByteBuffer.allocate(8).putLong(scope).array());
        out.write(RDFFormat.NQUADS.equals(format) ? NQUADS : NTRIPLES);
        string(out, baseIri == null ? "" : baseIri);
        if (context == null) {
            out.write(NO_CONTEXT);
        } else {
            out.write(context instanceof BNode ? BNODE_CONTEXT : IRI_CONTEXT);
            string(out, context.stringValue());
        }
        LogEntries.writeVarint(out, nonFatalErrors.size());
        nonFatalErrors.forEach(k -> string(out, k));
        return out.toByteArray();
    }

    /**
     * The end of a version 2 entry, after the compressed upload: what is known only once the body is
     * read and the transaction commits (the change set after the upload, its length, the upload's
     * length before compression).
     */
    public byte[] trailer() {
        return ByteBuffer.allocate(changeSetAfter.length + TRAILER_FIXED).put(changeSetAfter)
                .putInt(changeSetAfter.length).putLong(rawBytes).array();
    }

    /** True if {@code entry} is an upload entry (version 1, 6.5, or version 2, 6.6). */
    public static boolean isUpload(byte[] entry) {
        return entry.length > 0 && (entry[0] == LogEntries.UPLOAD || entry[0] == LogEntries.UPLOAD_STREAMED);
    }

    /**
     * Reads an upload entry of either version; refuses a truncated or malformed one, naming the byte
     * offset.
     */
    public static UploadEntry decode(byte[] entry, ValueFactory vf) {
        if (!isUpload(entry)) {
            throw new IllegalArgumentException("log entry kind " + (entry.length == 0 ? "(empty)" : entry[0])
                    + " is not an upload");
        }
        boolean streamed = entry[0] == LogEntries.UPLOAD_STREAMED;
        int fixed = streamed ? 1 + 8 + 1 : 1 + 16 + 1;
        if (entry.length < fixed) {
            throw new IllegalArgumentException("upload entry of " + entry.length + " bytes ends in its header");
        }
        ByteBuffer head = ByteBuffer.wrap(entry, 1, streamed ? 8 : 16);
        long scope = head.getLong();
        long raw = streamed ? -1 : head.getLong();
        int[] pos = {fixed - 1};
        byte f = entry[pos[0]++];
        if (f != NTRIPLES && f != NQUADS) {
            throw new IllegalArgumentException("upload entry: unknown format " + f + " at byte " + (pos[0] - 1));
        }
        String base = string(entry, pos);
        Resource context = null;
        byte c = byteAt(entry, pos);
        switch (c) {
            case NO_CONTEXT -> { }
            case IRI_CONTEXT -> context = vf.createIRI(string(entry, pos));
            case BNODE_CONTEXT -> context = vf.createBNode(string(entry, pos));
            default -> throw new IllegalArgumentException("upload entry: unknown context tag " + c + " at byte "
                    + (pos[0] - 1));
        }
        int settings = LogEntries.readVarint(entry, pos);
        Set<String> keys = new java.util.TreeSet<>();
        for (int i = 0; i < settings; i++) {
            keys.add(string(entry, pos));
        }
        byte[] changeSet;
        byte[] compressed;
        if (streamed) {
            // the trailer, read from the entry's end: change set, its length (4 bytes), raw length (8)
            if (entry.length - pos[0] < TRAILER_FIXED) {
                throw new IllegalArgumentException("upload entry of " + entry.length + " bytes has no room for its "
                        + TRAILER_FIXED + "-byte trailer after its header (" + pos[0] + " bytes)");
            }
            ByteBuffer tail = ByteBuffer.wrap(entry, entry.length - TRAILER_FIXED, TRAILER_FIXED);
            int after = tail.getInt();
            raw = tail.getLong();
            int end = entry.length - TRAILER_FIXED;
            if (after < 0 || after > end - pos[0]) {
                throw new IllegalArgumentException("upload entry: change set of " + after + " bytes before byte "
                        + end + " runs into the header (" + pos[0] + " bytes)");
            }
            if (raw < 0) {
                throw new IllegalArgumentException("upload entry: negative upload length " + raw + " at byte "
                        + (end + 4));
            }
            compressed = Arrays.copyOfRange(entry, pos[0], end - after);
            changeSet = Arrays.copyOfRange(entry, end - after, end);
        } else {
            int after = LogEntries.readVarint(entry, pos);
            if (after > entry.length - pos[0]) {
                throw new IllegalArgumentException("upload entry: change set of " + after + " bytes at byte " + pos[0]
                        + " runs past the entry's end (" + entry.length + " bytes)");
            }
            changeSet = Arrays.copyOfRange(entry, pos[0], pos[0] + after);
            pos[0] += after;
            compressed = Arrays.copyOfRange(entry, pos[0], entry.length);
        }
        return new UploadEntry(scope, f == NQUADS ? RDFFormat.NQUADS : RDFFormat.NTRIPLES, base.isEmpty() ? null : base,
                context, keys, raw, compressed, changeSet);
    }

    private static byte byteAt(byte[] entry, int[] pos) {
        if (pos[0] >= entry.length) {
            throw new IllegalArgumentException("upload entry ends early at byte " + pos[0]);
        }
        return entry[pos[0]++];
    }

    private static void string(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        LogEntries.writeVarint(out, b.length);
        out.writeBytes(b);
    }

    private static String string(byte[] entry, int[] pos) {
        int n = LogEntries.readVarint(entry, pos);
        if (n > entry.length - pos[0]) {
            throw new IllegalArgumentException("upload entry: string of " + n + " bytes at byte " + pos[0]
                    + " runs past the entry's end");
        }
        String s = new String(entry, pos[0], n, StandardCharsets.UTF_8);
        pos[0] += n;
        return s;
    }

    private static Map<String, RioSetting<?>> settings() {
        Map<String, RioSetting<?>> out = new LinkedHashMap<>();
        List<Class<?>> holders = new ArrayList<>(List.of(BasicParserSettings.class, NTriplesParserSettings.class));
        for (Class<?> holder : holders) {
            for (Field field : holder.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && RioSetting.class.isAssignableFrom(field.getType())) {
                    try {
                        RioSetting<?> s = (RioSetting<?>) field.get(null);
                        out.put(s.getKey(), s);
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return Map.copyOf(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UploadEntry u && scope == u.scope && rawBytes == u.rawBytes && format.equals(u.format)
                && java.util.Objects.equals(baseIri, u.baseIri) && java.util.Objects.equals(context, u.context)
                && nonFatalErrors.equals(u.nonFatalErrors) && Arrays.equals(compressed, u.compressed)
                && Arrays.equals(changeSetAfter, u.changeSetAfter);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(scope) * 31 + Arrays.hashCode(compressed);
    }

    @Override
    public String toString() {
        return "UploadEntry[" + format.getName() + ", " + rawBytes + " bytes in " + compressed.length
                + " compressed, change set after " + changeSetAfter.length + " bytes]";
    }
}
