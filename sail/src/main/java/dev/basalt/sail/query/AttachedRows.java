package dev.basalt.sail.query;

import java.util.NoSuchElementException;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;

import dev.basalt.optimizer.rdf4j.StatementIds;

/**
 * A native evaluation's rows with what closing them releases besides ({@link NativeQueries.Session#attach}: the
 * session's snapshot). Not thread-safe: read and closed by the thread that reads the result.
 */
class AttachedRows implements CloseableIteration<BindingSet> {
    private final CloseableIteration<? extends BindingSet> rows;
    private final Runnable release;

    AttachedRows(CloseableIteration<? extends BindingSet> rows, Runnable release) {
        this.rows = rows;
        this.release = release;
    }

    @Override
    public boolean hasNext() {
        return rows.hasNext();
    }

    @Override
    public BindingSet next() {
        if (!rows.hasNext()) {
            throw new NoSuchElementException();
        }
        return rows.next();
    }

    @Override
    public void remove() {
        rows.remove();
    }

    @Override
    public void close() {
        try {
            rows.close();
        } finally {
            release.run();
        }
    }

    /**
     * Rows that are a DESCRIBE's statements, readable as ids too ({@link StatementIds}, ids of the committed state of
     * the term space {@link #termSpace} names), for {@link QueryFront#answer}'s graph result ({@link KeptGraph}).
     */
    static final class Ids extends AttachedRows implements StatementIds {
        private final StatementIds ids;
        private final Object termSpace;

        Ids(CloseableIteration<? extends BindingSet> rows, Runnable release, StatementIds ids, Object termSpace) {
            super(rows, release);
            this.ids = ids;
            this.termSpace = termSpace;
        }

        @Override
        public int nextIds(long[] spo) {
            return ids.nextIds(spo);
        }

        @Override
        public Value[] terms(long[] termIds) {
            return ids.terms(termIds);
        }

        /** The identity of the store lexicon whose ids these are ({@code LexiconView#termSpace}). */
        Object termSpace() {
            return termSpace;
        }
    }
}
