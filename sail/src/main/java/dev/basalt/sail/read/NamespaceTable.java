package dev.basalt.sail.read;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Namespace;
import org.eclipse.rdf4j.model.impl.SimpleNamespace;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * Namespace prefixes, in the store tree {@value #TREE}: key = UTF-8 of the prefix (possibly
 * empty, which the B+tree allows), value = UTF-8 of the namespace name. Committed with the
 * statements of the same transaction.
 *
 * <p>Thread-safe: stateless; it reads and writes only the snapshot or transaction it is given, under that
 * object's own thread rules.
 */
public final class NamespaceTable {
    public static final String TREE = "ns";

    private NamespaceTable() {
    }

    public static List<Namespace> all(Snapshot snapshot) {
        return all(snapshot.tree(TREE));
    }

    /** Every namespace of the table {@code t} (null: none). */
    static List<Namespace> all(BTree t) {
        List<Namespace> out = new ArrayList<>();
        if (t != null) {
            BTreeCursor c = t.cursor(null, null);
            while (c.next()) {
                out.add(new SimpleNamespace(text(c.key()), text(c.value())));
            }
        }
        return out;
    }

    /** The namespace of a prefix in the table {@code t} (null: none), or null. */
    static String get(BTree t, String prefix) {
        byte[] v = t == null ? null : t.get(bytes(prefix));
        return v == null ? null : text(v);
    }

    /** Sets a prefix; returns true if that changed the table. */
    public static boolean set(WriteTransaction tx, String prefix, String name) {
        byte[] old = tx.tree(TREE).put(bytes(prefix), bytes(name));
        return old == null || !text(old).equals(name);
    }

    public static boolean remove(WriteTransaction tx, String prefix) {
        return tx.hasTree(TREE) && tx.tree(TREE).remove(bytes(prefix)) != null;
    }

    public static boolean clear(WriteTransaction tx) {
        if (!tx.hasTree(TREE) || tx.tree(TREE).isEmpty()) {
            return false;
        }
        tx.tree(TREE).clear();
        return true;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
