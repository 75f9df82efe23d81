package dev.basalt.optimizer.rdf4j;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.impl.ListBindingSet;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.store.lexicon.TermIds;

/**
 * A DESCRIBE's expansion read straight from the statement indices: for each row of the WHERE part and each described
 * name (in the order of the operator's binding names), the symmetric concise bounded description of the value, as
 * RDF4J 5.0.3's DESCRIBE operator gives it for any store (docs/sail.md, "What a DESCRIBE answers"), as rows of
 * {@code subject}, {@code predicate}, {@code object}.
 *
 * <p>The description of a value {@code v}, in this order: the statements with {@code v} as subject (none for a
 * literal), then, for each blank node object met and not yet expanded in this query, its statements as subject, and
 * so on down blank-node chains; then the statements with {@code v} as object, and likewise for each blank node
 * subject met and not yet expanded, its statements as object. A blank node is expanded at most once per query, in
 * the direction it was first reached in (a query describing several values skips a blank node an earlier
 * description expanded); a described value is expanded each time it is described. This is RDF4J's traversal, so the
 * answers are the same statements as RDF4J's, also for cycles and blank nodes shared between descriptions. Each
 * scan reads the default graphs of the query's dataset ({@code graphs}: null for every graph, one scan per listed
 * graph, none for an empty list), as a default-graph statement pattern does.
 *
 * <p>What it saves over RDF4J's operator: per expanded node, a statement pattern compiled and evaluated through
 * RDF4J's triple source (statements made from values, then binding sets from statements); here a scan of term ids,
 * a block at a time, whose ids are resolved to values in one call.
 *
 * <p>The statements are also readable as ids ({@link StatementIds}), for a writer that encodes terms by id: then no
 * term is resolved here. Blank nodes are told from other terms by their ids' kind either way. The rows may come as
 * ids too ({@link IdRows}, a kept plan's, {@code ShapePlans#run}): then a described value is not resolved by the
 * WHERE part and looked up again here; an id of a value the store does not hold (a computed one) is skipped, as
 * the value's lookup finding nothing is, and a resource is told by its id's kind.
 *
 * <p>Not thread-safe: one per evaluation, read by the thread that evaluates the query.
 */
final class NativeDescribe extends LookAheadIteration<BindingSet> implements StatementIds {
    /** The names RDF4J's graph query reads a DESCRIBE's statements from. */
    static final List<String> NAMES = List.of("subject", "predicate", "object");
    /** Statements read per scan call: a first block small enough for a typical description, grown when filled. */
    private static final int FIRST_BLOCK = 32;
    private static final int BLOCK = 256;

    /** The WHERE part's rows, as binding sets ({@link #rows}) or as the described names' ids ({@link #idRows}). */
    private final CloseableIteration<BindingSet> rows;
    private final IdRows idRows;
    private long[] idRow;
    /** The described names (null over id rows), and how many a row has. */
    private final String[] described;
    private final int perRow;
    private final QuadSource source;
    /** The graphs to read: null for every graph, else one scan per id (none when empty). */
    private final long[] graphs;
    /** Blank nodes expanded so far in this query (their ids). */
    private final Set<Long> expanded = new HashSet<>();
    /** Blank nodes met and still to expand in the current direction. */
    private final ArrayDeque<Long> queue = new ArrayDeque<>();

    private BindingSet row;
    private int nameIndex;
    /** The described value's id while it is described, else {@link TermIds#NULL}. */
    private long start;
    private boolean startIsResource;
    /** Whether the current direction is outgoing (the node as subject) or incoming (as object). */
    private boolean outgoing;
    /** The node the open scans are for, the graph index of the open scan, and the scan. */
    private long node;
    private int graph;
    private QuadSource.Scan scan;

    private long[] quads = new long[4 * FIRST_BLOCK];
    private long[] ids = new long[3 * FIRST_BLOCK];
    private Value[] values;
    private int count;
    private int next;

    NativeDescribe(CloseableIteration<BindingSet> rows, List<String> described, QuadSource source, long[] graphs) {
        this.rows = rows;
        this.idRows = null;
        this.described = described.toArray(new String[0]);
        this.perRow = this.described.length;
        this.source = source;
        this.graphs = graphs;
    }

    /** Over rows of ids: each row the ids of the described names, in the order of the operator's binding names. */
    NativeDescribe(IdRows rows, int described, QuadSource source, long[] graphs) {
        this.rows = null;
        this.idRows = rows;
        this.described = null;
        this.perRow = described;
        this.source = source;
        this.graphs = graphs;
    }

    /**
     * The WHERE part's rows as ids: each row (an array the next call may reuse) the ids of the described names,
     * {@link TermIds#NULL} for no value; null after the last. Read by the describing thread; closing it ends them.
     */
    interface IdRows extends AutoCloseable {
        long[] next();

        @Override
        void close();
    }

    @Override
    protected BindingSet getNextElement() {
        while (next >= count) {
            if (!fill()) {
                return null;
            }
        }
        if (values == null) {
            values = source.resolve(3 * count == ids.length ? ids : java.util.Arrays.copyOf(ids, 3 * count));
        }
        int i = 3 * next++;
        return new ListBindingSet(NAMES, values[i], values[i + 1], values[i + 2]);
    }

    @Override
    public int nextIds(long[] spo) {
        while (next >= count) {
            if (!fill()) {
                return 0;
            }
        }
        int n = Math.min(count - next, spo.length / 3);
        System.arraycopy(ids, 3 * next, spo, 0, 3 * n);
        next += n;
        return n;
    }

    @Override
    public Value[] terms(long[] termIds) {
        return source.resolve(termIds);
    }

    /** Reads the next block of statements into {@link #ids}; false when the description is complete. */
    private boolean fill() {
        while (true) {
            if (scan != null) {
                int block = ids.length / 3;
                if (count == block && block < BLOCK) { // the last block was full: read more at a time
                    block = Math.min(BLOCK, 4 * block);
                    quads = new long[4 * block];
                    ids = new long[3 * block];
                }
                int n = scan.nextBlock(quads, block);
                if (n > 0) {
                    resolve(n);
                    return true;
                }
                scan.close();
                scan = null;
                if (graphs != null && ++graph < graphs.length) {
                    scan = open(node, graphs[graph]);
                    continue;
                }
            }
            if (!advance()) {
                return false;
            }
        }
    }

    /** Opens the scans of the next node to expand; false when every row is described. */
    private boolean advance() {
        Long queued = queue.poll();
        if (queued != null) {
            expanded.add(queued);
            return openNode(queued);
        }
        if (start != TermIds.NULL && outgoing) {
            outgoing = false; // the described value's incoming statements
            return openNode(start);
        }
        start = TermIds.NULL;
        while (start == TermIds.NULL) {
            if (idRows != null ? !nextDescribedId() : !nextDescribedValue()) {
                return false;
            }
        }
        outgoing = startIsResource;
        return openNode(start);
    }

    /** Sets {@link #start} to the next described value's id (NULL when the store lacks it); false after the last row. */
    private boolean nextDescribedValue() {
        if (row == null || nameIndex == perRow) {
            if (!rows.hasNext()) {
                return false;
            }
            row = rows.next();
            nameIndex = 0;
        }
        Value v = row.getValue(described[nameIndex++]);
        start = v == null ? TermIds.NULL : source.lookup(v);
        startIsResource = v instanceof Resource;
        return true;
    }

    /** {@link #nextDescribedValue} over {@link #idRows}: a computed value's id is no stored term's, so NULL. */
    private boolean nextDescribedId() {
        if (idRow == null || nameIndex == perRow) {
            if ((idRow = idRows.next()) == null) {
                return false;
            }
            nameIndex = 0;
        }
        long id = idRow[nameIndex++];
        start = TermIds.isLocal(id) || id == ExecContext.UNBOUND_BY_ERROR ? TermIds.NULL : id;
        startIsResource = TermIds.isResource(id);
        return true;
    }

    private boolean openNode(long id) {
        node = id;
        graph = 0;
        if (graphs == null) {
            scan = open(id, TermIds.NULL);
        } else if (graphs.length > 0) {
            scan = open(id, graphs[0]);
        }
        return true;
    }

    private QuadSource.Scan open(long id, long context) {
        return source.scan(outgoing ? new long[] { id, TermIds.NULL, TermIds.NULL, context }
                : new long[] { TermIds.NULL, TermIds.NULL, id, context });
    }

    /** Takes the block's subjects, predicates and objects and queues the blank nodes it reaches. */
    private void resolve(int n) {
        for (int q = 0; q < n; q++) {
            System.arraycopy(quads, 4 * q, ids, 3 * q, 3);
        }
        values = null; // resolved when rows are read (getNextElement)
        int reached = outgoing ? 2 : 0;
        for (int q = 0; q < n; q++) {
            long id = quads[4 * q + reached];
            if (TermIds.kindCode(id) == TermIds.KIND_BLANK_NODE && !expanded.contains(id)) {
                queue.add(id);
            }
        }
        count = n;
        next = 0;
    }

    @Override
    protected void handleClose() {
        try {
            if (scan != null) {
                scan.close();
                scan = null;
            }
        } finally {
            if (idRows != null) {
                idRows.close();
            } else {
                rows.close();
            }
        }
    }
}
