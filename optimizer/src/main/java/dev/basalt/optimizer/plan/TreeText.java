package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.helpers.QueryModelTreePrinter;

/**
 * Texts of an RDF4J algebra tree in space linear in its size. RDF4J's {@code toString()} of a node (its tree printer)
 * indents every line by the node's depth, so its text grows with the square of the depth: a filter of 20,000
 * {@code ||} is a chain 20,000 deep whose printed tree is gigabytes, and printing it runs a server out of memory.
 * Basalt's own comparisons and messages use these instead of {@code toString()}:
 * <ul>
 * <li>{@link #keyed}: each node's line as RDF4J's printer writes it (signature, scope change, join algorithm, cost
 * annotation), in the printer's order, each after its depth as a number rather than indentation. Two trees have the
 * same keyed text exactly when the printer prints them alike (a line never starts with the printer's indentation,
 * which is blanks).</li>
 * <li>{@link #oneLine}: the printed tree with each run of whitespace as one blank, cut at a length; the walk stops
 * once the text is that long.</li>
 * </ul>
 * A tree deep enough to overflow the stack overflows it here as in RDF4J's printer ({@link StackOverflowError},
 * which the HTTP layer answers with 400 "nested too deeply"). Stateless; any thread may call it.
 */
public final class TreeText {
    private TreeText() {
    }

    /** The keyed text of {@code root}: each node's printed line after its depth. */
    public static String keyed(QueryModelNode root) {
        StringBuilder sb = new StringBuilder(256);
        root.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            private int depth;

            @Override
            protected void meetNode(QueryModelNode node) {
                sb.append(depth).append(' ').append(line(node));
                depth++;
                super.meetNode(node);
                depth--;
            }
        });
        return sb.toString();
    }

    /**
     * The printed tree of {@code root} on one line (whitespace runs as one blank, trimmed); longer than
     * {@code max} characters (at least 4), it is cut to {@code max - 3} and ends with "...".
     */
    public static String oneLine(QueryModelNode root, int max) {
        if (max < 4) {
            throw new IllegalArgumentException("max must be at least 4, was " + max);
        }
        StringBuilder sb = new StringBuilder();
        root.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                if (sb.length() > max) {
                    return; // long enough: the rest of the tree is cut off anyway
                }
                String text = line(node).replaceAll("\\s+", " ").trim();
                if (!text.isEmpty()) {
                    sb.append(sb.length() == 0 ? "" : " ").append(text);
                }
                super.meetNode(node);
            }
        });
        return sb.length() > max ? sb.substring(0, max - 3) + "..." : sb.toString();
    }

    /** {@code node}'s own line as RDF4J's tree printer writes it, without indentation, ending with a line break. */
    static String line(QueryModelNode node) {
        NodeLine printer = new NodeLine();
        node.visit(printer);
        return printer.getTreeString();
    }

    /** RDF4J's tree printer held to the first node it meets: its children are visited and not printed. */
    private static final class NodeLine extends QueryModelTreePrinter {
        private boolean printed;

        @Override
        protected void meetNode(QueryModelNode node) {
            if (!printed) {
                printed = true;
                super.meetNode(node);
            }
        }
    }
}
