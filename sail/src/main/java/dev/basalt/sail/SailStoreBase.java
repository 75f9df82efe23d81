package dev.basalt.sail;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.sail.base.SailSource;
import org.eclipse.rdf4j.sail.base.SailStore;
import dev.basalt.sail.read.BasaltEvaluationStatistics;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.sail.write.BasaltSailSource;
import dev.basalt.sail.write.StoreWriter;

/**
 * What Basalt's three {@link SailStore}s share: a value factory, the two statement sets as
 * {@link SailSource}s, and evaluation statistics over one {@link ReadSource}. The backing store
 * ({@link BasaltSailStore}) and a past commit point ({@link PastSailStore}) expose their statement
 * sets as {@link BasaltSailSource}s ({@link #statementSets}); a connection's view
 * ({@link IsolatingSailStore}) wraps the backing store's sources in its own.
 *
 * <p>Thread rules: the sources are set once, by the subclass's constructor, before the store is
 * shared; after that this base is immutable and as thread-safe as the sources it hands out.
 */
abstract class SailStoreBase implements SailStore {
    private final ValueFactory vf;
    private final ReadSource statistics;
    private SailSource explicit;
    private SailSource inferred;

    /** @param statistics what the evaluation statistics count in */
    SailStoreBase(ValueFactory vf, ReadSource statistics) {
        this.vf = vf;
        this.statistics = statistics;
    }

    /** Sets the two statement sets' sources; called once by the subclass's constructor. */
    final void sources(SailSource explicit, SailSource inferred) {
        this.explicit = explicit;
        this.inferred = inferred;
    }

    /** Sources reading {@code reads} and writing through {@code writer} (null: read-only). */
    final void statementSets(ReadSource reads, StoreWriter writer) {
        sources(new BasaltSailSource(reads, writer, StatementSet.EXPLICIT, vf),
                new BasaltSailSource(reads, writer, StatementSet.INFERRED, vf));
    }

    @Override
    public final ValueFactory getValueFactory() {
        return vf;
    }

    @Override
    public final EvaluationStatistics getEvaluationStatistics() {
        return new BasaltEvaluationStatistics(statistics);
    }

    @Override
    public final SailSource getExplicitSailSource() {
        return explicit;
    }

    @Override
    public final SailSource getInferredSailSource() {
        return inferred;
    }
}
