package dev.basalt.replication;

import java.io.IOException;
import java.nio.file.Path;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailConnection;

/**
 * What the replication state machine needs of the node's own Basalt store: connections to apply
 * change sets with, a hot backup of its newest commit point (a Raft snapshot) and the replacement of
 * its journal by such a backup (an installed snapshot). {@link ReplicatedSail} implements it.
 *
 * <p>Called from the state machine's single apply thread.
 */
interface LocalStore {
    ValueFactory valueFactory();

    /** A connection to the local store itself, bypassing replication. */
    SailConnection connection();

    /** A directory for temporary files of the store's writes (the bulk loader's sort runs). */
    Path tempDir();

    /** Writes the newest commit point to the new file {@code target}. */
    void backup(Path target) throws IOException;

    /** Replaces the store's journal by the backup {@code backup}, closing and reopening the store. */
    void replaceWith(Path backup) throws IOException;
}
