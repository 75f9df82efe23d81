package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.query.explanation.GenericPlanNode;

/**
 * What one query evaluation left to RDF4J's evaluator, kept for its EXPLAIN: the algebra nodes
 * {@link BasaltPlanOptimizer} could not compile, with the reason, or the reason RDF4J evaluated
 * the whole query. {@link #annotate} writes them into RDF4J's explanation: each node left to RDF4J
 * says so and why, and a line above the explained tree's top node lists the native plans and every fallback of
 * the query. Runtime fallbacks (a compiled plan handing one evaluation to RDF4J) are shown by
 * the plan's own node ({@link BasaltPlanNode#getSignature()}).
 *
 * <p>The store-wide counters stay in {@link NativeQueryStats}; this record is per evaluation and
 * is only made for explained queries.
 * Thread-safe: the node map is synchronized and the whole-query reason volatile.
 */
public final class QueryFallbacks {
    /** Marks a node of RDF4J's explanation that RDF4J's evaluator ran instead of Basalt's engine. */
    public static final String NODE_MARK = "[RDF4J evaluator: ";
    /** Starts the summary line added to the explained tree's top node. */
    public static final String SUMMARY = "Basalt native evaluation: ";

    private final Map<QueryModelNode, String> nodes = Collections.synchronizedMap(new IdentityHashMap<>());
    private volatile String wholeQuery;

    /** RDF4J's evaluator runs the whole query, for this reason. */
    public void wholeQuery(String reason) {
        wholeQuery = reason;
    }

    /** This node of the optimized tree stays with RDF4J's evaluator (its children may be compiled). */
    void node(QueryModelNode node, String reason) {
        nodes.put(node, reason);
    }

    /**
     * Writes this record into {@code explanation}, RDF4J's explanation of the tree {@code explained}
     * (the tuple expression it was made from, after optimization; below a {@link QueryRoot} the
     * explanation starts at the root's argument). RDF4J builds one plan node per
     * algebra node, visiting children in {@code visitChildren} order; the walk here follows the same
     * order and stops at any node whose children do not line up.
     */
    public Explanation annotate(Explanation explanation, QueryModelNode explained) {
        GenericPlanNode top = explanation.toGenericPlanNode();
        if (top == null) {
            return explanation;
        }
        List<String> left = new ArrayList<>();
        int[] plans = new int[1];
        // RDF4J's explanation starts below the query root, at its argument
        walk(explained instanceof QueryRoot root ? root.getArg() : explained, top, left, plans);
        StringBuilder summary = new StringBuilder(SUMMARY);
        if (wholeQuery != null) {
            summary.append("none, RDF4J's evaluator ran the whole query (").append(wholeQuery).append(')');
        } else {
            summary.append(plans[0]).append(plans[0] == 1 ? " plan" : " plans").append(", ");
            if (left.isEmpty()) {
                summary.append("no fallbacks");
            } else {
                summary.append(left.size()).append(left.size() == 1 ? " node" : " nodes")
                        .append(" left to RDF4J's evaluator: ").append(String.join("; ", left));
            }
        }
        top.setType(summary + "\n" + top.getType());
        return explanation;
    }

    private void walk(QueryModelNode node, GenericPlanNode shown, List<String> left, int[] plans) {
        if (node instanceof BasaltPlanNode) {
            plans[0]++;
        }
        String reason = nodes.get(node);
        if (reason != null) {
            String type = node.getClass().getSimpleName();
            left.add(type + " (" + reason + ")");
            shown.setType(shown.getType() + " " + NODE_MARK + reason + "]");
        }
        List<QueryModelNode> children = children(node);
        List<GenericPlanNode> shownChildren = shown.getPlans() == null ? List.of() : shown.getPlans();
        if (children.size() != shownChildren.size()) {
            return;
        }
        for (int i = 0; i < children.size(); i++) {
            walk(children.get(i), shownChildren.get(i), left, plans);
        }
    }

    private static List<QueryModelNode> children(QueryModelNode node) {
        List<QueryModelNode> out = new ArrayList<>();
        node.visitChildren(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode child) {
                out.add(child);
            }
        });
        return out;
    }
}
