package dev.basalt.replication.log;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.Statement;

/**
 * The net effect of one committed transaction, the payload of one replication log entry: namespace
 * changes in the order they were made, then explicit statements to remove and statements to add.
 * The two statement sets are disjoint, so applying a change set makes every statement in
 * {@link #removed()} absent and every one in {@link #added()} present, whatever the state before.
 * That makes applying idempotent, and replaying any suffix of already applied entries leaves the
 * state the full sequence left (the last entry that names a statement decides it).
 *
 * <p>Built by one transaction's thread ({@link #add}, {@link #remove}, {@link #namespace}); once
 * handed to the log it is not changed again and may be read from any thread.
 */
public final class ChangeSet {
    /** One namespace operation; {@code prefix} is null for CLEAR, {@code name} is null unless SET. */
    public record NamespaceChange(Kind kind, String prefix, String name) {
        public enum Kind { SET, REMOVE, CLEAR }
    }

    private final List<NamespaceChange> namespaces = new ArrayList<>();
    private final Set<Statement> removed = new LinkedHashSet<>();
    private final Set<Statement> added = new LinkedHashSet<>();

    /** Records that {@code st} (its context null for the default graph) is present after the transaction. */
    public void add(Statement st) {
        removed.remove(st);
        added.add(st);
    }

    /** Records that {@code st} (its context null for the default graph) is absent after the transaction. */
    public void remove(Statement st) {
        added.remove(st);
        removed.add(st);
    }

    public void namespace(NamespaceChange change) {
        namespaces.add(change);
    }

    public List<NamespaceChange> namespaces() {
        return Collections.unmodifiableList(namespaces);
    }

    public Set<Statement> removed() {
        return Collections.unmodifiableSet(removed);
    }

    public Set<Statement> added() {
        return Collections.unmodifiableSet(added);
    }

    public boolean isEmpty() {
        return namespaces.isEmpty() && removed.isEmpty() && added.isEmpty();
    }

    @Override
    public String toString() {
        return "ChangeSet[" + namespaces.size() + " namespace changes, " + removed.size() + " removed, "
                + added.size() + " added]";
    }
}
