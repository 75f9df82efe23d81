package dev.basalt.replication;

import java.nio.file.Path;
import java.util.Collection;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.sail.SailConnection;

import dev.basalt.sail.BasaltStoreConnection;
import dev.basalt.sail.load.StatementsLoad;

/**
 * Adds a large change set's statements to the local store through the Basalt store's bulk write
 * path ({@link BasaltStoreConnection#addBulk} with a {@link StatementsLoad}: terms resolved in
 * sorted batches, quads sorted and merged into each index) instead of statement by statement. The
 * change set's values go to the store as they are, with no text in between, so every statement
 * qualifies (blank nodes keep their labels, IRIs and literals every character) and the store ends
 * as the statement-by-statement apply would leave it.
 *
 * <p>Thread rules: {@link #add} is called by the thread that owns the connection (the applier's).
 */
final class BulkApply {
    /** Change sets adding fewer statements are applied statement by statement. */
    static final int MIN_STATEMENTS = 20_000;

    private BulkApply() {
    }

    /** True if {@code added} is large enough for the bulk path. */
    static boolean eligible(Collection<Statement> added) {
        return added.size() >= MIN_STATEMENTS;
    }

    /**
     * Adds {@code added} in {@code c}'s open transaction through the bulk write path; a failure
     * leaves the transaction able only to roll back.
     *
     * @return false, having added nothing, when the bulk path cannot be taken now
     */
    static boolean add(SailConnection c, Collection<Statement> added, Path temp) {
        return c instanceof BasaltStoreConnection basalt
                && basalt.addBulk(new StatementsLoad("a replicated change set", added, temp));
    }
}
