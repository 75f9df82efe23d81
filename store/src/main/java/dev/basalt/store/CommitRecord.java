package dev.basalt.store;

import dev.basalt.store.btree.BTreeCheckpoint;
import dev.basalt.store.journal.CorruptRecordException;
import dev.basalt.store.journal.RecordStore;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one commit point consists of: the checkpoint of every named B+tree and small named
 * properties of upper layers (counters, settings), plus the commit-time index that finds earlier
 * commit records. A root block points at the newest one. See docs/FORMAT.md, "Commit record".
 *
 * <p>Immutable in effect: its maps are unmodifiable copies and the property arrays, copied in by
 * {@link WriteTransaction} and out by {@link Snapshot}, are never written, so one record is shared
 * by the writer and every snapshot across threads.
 */
record CommitRecord(long counter, long timeMillis, BTreeCheckpoint commitIndex,
                    Map<String, BTreeCheckpoint> trees, Map<String, byte[]> properties) {
    /**
     * The version this Basalt writes. Version 2 has version 1's layout; it marks a store written by
     * a Basalt that checks the sail layout property ({@code sail.layout}, docs/FORMAT.md §5.1), so a
     * Basalt that reads only version 1, which would take the statement orders a newer sail layout
     * leaves empty for complete ones, refuses the store instead.
     */
    static final int VERSION = 2;
    /** The oldest version this Basalt reads. */
    static final int OLDEST_READABLE_VERSION = 1;
    static final CommitRecord EMPTY = new CommitRecord(0, 0, BTreeCheckpoint.EMPTY, Map.of(), Map.of());

    CommitRecord {
        trees = Collections.unmodifiableMap(new TreeMap<>(trees));
        properties = Collections.unmodifiableMap(new TreeMap<>(properties));
    }

    ByteBuffer encode() {
        return encode(VERSION);
    }

    /** The record in the layout of {@code version} (1 or 2, which differ only in this byte); tests write version 1. */
    ByteBuffer encode(int version) {
        int size = 1 + 8 + 8 + BTreeCheckpoint.ENCODED_BYTES + 4 + 4;
        for (Map.Entry<String, BTreeCheckpoint> e : trees.entrySet()) {
            size += 2 + utf8(e.getKey()).length + BTreeCheckpoint.ENCODED_BYTES;
        }
        for (Map.Entry<String, byte[]> e : properties.entrySet()) {
            size += 2 + utf8(e.getKey()).length + 4 + e.getValue().length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put((byte) version).putLong(counter).putLong(timeMillis).put(commitIndex.toBytes());
        b.putInt(trees.size());
        for (Map.Entry<String, BTreeCheckpoint> e : trees.entrySet()) {
            putName(b, e.getKey());
            b.put(e.getValue().toBytes());
        }
        b.putInt(properties.size());
        for (Map.Entry<String, byte[]> e : properties.entrySet()) {
            putName(b, e.getKey());
            b.putInt(e.getValue().length).put(e.getValue());
        }
        return b.flip();
    }

    static CommitRecord decode(ByteBuffer b, long address) {
        try {
            int version = b.get() & 0xff;
            if (version < OLDEST_READABLE_VERSION || version > VERSION) {
                throw new CorruptRecordException(address, "commit record version " + version
                        + " is unknown to this Basalt, which reads versions " + OLDEST_READABLE_VERSION + " to " + VERSION
                        + (version > VERSION ? ": the store was written by a later Basalt; open it with that release" : ""));
            }
            long counter = b.getLong();
            long time = b.getLong();
            BTreeCheckpoint commits = BTreeCheckpoint.fromBytes(b);
            int n = b.getInt();
            Map<String, BTreeCheckpoint> trees = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                trees.put(getName(b), BTreeCheckpoint.fromBytes(b));
            }
            int p = b.getInt();
            Map<String, byte[]> props = new TreeMap<>();
            for (int i = 0; i < p; i++) {
                String name = getName(b);
                byte[] v = new byte[b.getInt()];
                b.get(v);
                props.put(name, v);
            }
            return new CommitRecord(counter, time, commits, trees, props);
        } catch (BufferUnderflowException | NegativeArraySizeException | IllegalArgumentException e) {
            throw new CorruptRecordException(address, "commit record is malformed: " + e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void putName(ByteBuffer b, String name) {
        byte[] u = utf8(name);
        b.putShort((short) u.length).put(u);
    }

    private static String getName(ByteBuffer b) {
        byte[] u = new byte[b.getShort() & 0xffff];
        b.get(u);
        return new String(u, StandardCharsets.UTF_8);
    }

    static boolean isReservedName(String name) {
        return name.isEmpty() || name.length() > 1024 || name.startsWith("__");
    }

    static long requireRecord(long address) {
        if (address == RecordStore.NULL) {
            throw new IllegalStateException("no commit record");
        }
        return address;
    }
}
