package dev.basalt.sail.query;

import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;

/**
 * A query's tree together with what its {@link QueryFront} prepared for its evaluation: the root a
 * {@code BasaltRepository} query gives its sail connection's {@code evaluate} in place of the parsed tree, so the
 * prepared stages travel with the tree itself (no thread-local hand-over). A Basalt store's connection takes it
 * apart ({@link #preparedFor}, {@link #tree}). A sail between them that passes the tree on (an inferencer) passes
 * the preparation on with it; one that rewrites a clone of it (LuceneSail) leaves a clone that is no longer
 * recognized ({@link #preparedFor} answers null), and that query runs every optimizer. The tree's parent is not
 * changed. Not thread-safe: one query evaluation's.
 */
public final class ShapedQuery extends QueryRoot {
    private final TupleExpr tree;
    /**
     * Not part of the tree's serialized form: RDF4J's {@code ParentReferenceChecker} (active with assertions on)
     * serializes trees, and a deserialized copy is no shaped query of this evaluation anyway.
     */
    private final transient PreparedAlgebra prepared;

    public ShapedQuery(TupleExpr tree, PreparedAlgebra prepared) {
        this.arg = tree; // not setArg: the parsed query's tree keeps its parent
        this.tree = tree;
        this.prepared = prepared;
    }

    /**
     * What was prepared for {@code expr}'s evaluation, or null if it is no (untouched) shaped query nor a
     * {@link PendingTree} made by the front door.
     */
    public static PreparedAlgebra preparedFor(TupleExpr expr) {
        if (expr instanceof PendingTree p) {
            return p.prepared();
        }
        return expr instanceof ShapedQuery s && s.getArg() == s.tree ? s.prepared : null;
    }

    /** The tree to evaluate: {@code expr}, or the tree under a shaped query's root. */
    public static TupleExpr tree(TupleExpr expr) {
        return expr instanceof ShapedQuery s ? s.getArg() : expr;
    }
}
