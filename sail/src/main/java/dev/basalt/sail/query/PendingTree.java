package dev.basalt.sail.query;

import java.util.Set;

import org.eclipse.rdf4j.common.order.AvailableStatementOrder;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;

/**
 * The root of a SELECT, CONSTRUCT or DESCRIBE query of a known shape whose tree is made only when something reads it:
 * a query whose shape has a kept plan runs that plan with its constants bound as parameters and never needs the
 * tree (a CONSTRUCT's plan gives the template's statements as rows, a DESCRIBE's the described values), so neither
 * the template's clone with the constants put in nor RDF4J's copy of it in its sail connection is made
 * ({@link QueryFront#prepare}). Everything that reads the tree (its child, a visitor, a comparison, a deep
 * copy, a printout) gets the instantiated tree, made once per root; a copy of a root whose tree is not yet made
 * is another pending root of the same query (nothing deep to copy). The binding names are the template's, which
 * are every query's of a SELECT shape whose projection names no constant, and of every graph query shape (the
 * statement's roles, or a DESCRIBE's described variables).
 *
 * <p>The root carries what the front door prepared for the query's evaluation ({@link PreparedAlgebra}), which the
 * store's connection takes from it as from a {@link ShapedQuery}. Only the front door makes one, for a repository
 * whose sail is the Basalt store itself, and only for a query with no Basalt query hint in it (hints are patterns
 * the store's connection strips from the tree, which a pending root leaves unread). Not thread-safe: one query
 * evaluation's, like any RDF4J query tree.
 */
public final class PendingTree extends QueryRoot {
    /*
     * Not part of the tree's serialized form: RDF4J's ParentReferenceChecker (active with assertions on) serializes
     * trees, and a deserialized copy is only compared, never evaluated.
     */
    private final transient QueryTemplate template;
    private final transient QueryShape shape;
    /** Counts the trees made. */
    private final transient QueryFront front;
    /** What the front door prepared for the query's evaluation; not carried by copies. */
    private transient PreparedAlgebra prepared;
    private boolean made;

    PendingTree(QueryTemplate template, QueryShape shape, QueryFront front, PreparedAlgebra prepared) {
        this.template = template;
        this.shape = shape;
        this.front = front;
        this.prepared = prepared;
    }

    /** What the front door prepared for the evaluation of this root's query (null for a copy). */
    PreparedAlgebra prepared() {
        return prepared;
    }

    /** Whether {@code expr} is a root whose tree has not been read yet. */
    public static boolean isPending(TupleExpr expr) {
        return expr instanceof PendingTree p && !p.made;
    }

    /** Makes the tree of {@code expr} now if it is a pending root. */
    public static void make(TupleExpr expr) {
        if (expr instanceof PendingTree p) {
            p.made();
        }
    }

    /** The tree, made now if it was not yet. */
    private TupleExpr made() {
        if (!made) {
            made = true;
            TupleExpr tree = template.instantiateTree(shape);
            // the parser roots its trees: this root takes the place of the instantiated one
            super.setArg(tree instanceof QueryRoot root ? root.getArg() : tree);
            front.pendingTreeMade();
        }
        return arg;
    }

    @Override
    public TupleExpr getArg() {
        return made();
    }

    @Override
    public void setArg(TupleExpr arg) {
        made = true;
        super.setArg(arg);
    }

    @Override
    public Set<String> getBindingNames() {
        return made ? super.getBindingNames() : template.tree().getBindingNames();
    }

    @Override
    public Set<String> getAssuredBindingNames() {
        return made ? super.getAssuredBindingNames() : template.tree().getAssuredBindingNames();
    }

    @Override
    public <X extends Exception> void visitChildren(QueryModelVisitor<X> visitor) throws X {
        made();
        super.visitChildren(visitor);
    }

    @Override
    public void replaceChildNode(QueryModelNode current, QueryModelNode replacement) {
        made();
        super.replaceChildNode(current, replacement);
    }

    @Override
    public Set<Var> getSupportedOrders(AvailableStatementOrder tripleSource) {
        made();
        return super.getSupportedOrders(tripleSource);
    }

    @Override
    public void setOrder(Var var) {
        made();
        super.setOrder(var);
    }

    @Override
    public Var getOrder() {
        made();
        return super.getOrder();
    }

    @Override
    public boolean equals(Object other) {
        made();
        if (other instanceof PendingTree p) {
            p.made();
        }
        return super.equals(other);
    }

    @Override
    public int hashCode() {
        made();
        return super.hashCode();
    }

    /** A query root's: printed trees (EXPLAIN, the front door's comparisons) do not tell the two apart. */
    @Override
    public String getSignature() {
        return QueryRoot.class.getSimpleName();
    }

    @Override
    public PendingTree clone() {
        if (made) {
            PendingTree copy = (PendingTree) super.clone();
            copy.prepared = null;
            return copy;
        }
        return new PendingTree(template, shape, front, null);
    }
}
