package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.lexicon.TermIds;

/**
 * Ids for values one evaluation computed that the store does not hold (a BIND result, an
 * aggregate, a VALUES constant, an incoming binding). Ids start at {@link TermIds#FIRST_LOCAL}; one
 * value gets one id, so id equality stays term identity across stored and local ids. Lives as long
 * as its {@link ExecContext}.
 * Not thread-safe: its {@link ExecContext} locks around it while the evaluation runs threads in
 * parallel.
 */
final class LocalTerms {
    private final Map<Value, Long> ids = new HashMap<>();
    private final List<Value> values = new ArrayList<>();

    long id(Value v) {
        Long id = ids.get(v);
        if (id == null) {
            id = TermIds.FIRST_LOCAL + values.size();
            values.add(v);
            ids.put(v, id);
        }
        return id;
    }

    Value value(long id) {
        long i = id - TermIds.FIRST_LOCAL;
        if (i < 0 || i >= values.size()) {
            throw new IllegalStateException("query-local id " + TermIds.describe(id) + " was not issued by this evaluation");
        }
        return values.get((int) i);
    }
}
