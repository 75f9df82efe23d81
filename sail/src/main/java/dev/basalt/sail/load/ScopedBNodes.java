package dev.basalt.sail.load;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.base.AbstractValueFactory;

/**
 * A value factory that makes a file's blank node labels its own: {@code _:b1} of one file and of
 * another (or of an earlier load of the same file) are different nodes, while every chunk of one
 * file, parsed by separate parsers with {@code PRESERVE_BNODE_IDS}, maps {@code _:b1} to the same
 * node. The node id is a prefix unique to the load and the file, then the label. Thread-safe.
 */
final class ScopedBNodes extends AbstractValueFactory {
    private final String prefix;

    ScopedBNodes(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public BNode createBNode(String nodeID) {
        return super.createBNode(prefix + nodeID);
    }
}
