package dev.basalt.optimizer.access;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;

/**
 * A kept plan's parameter source at run time resolves and looks up through the source it wraps
 * ({@code QuadSource.resolver}), so an evaluation's term reads reach the store's source directly, with the same
 * values and ids as through the wrapper; while the plan is compiled, lookups go through the wrapper, which maps the
 * shape's sentinels to parameters.
 */
class ParameterSourceResolverTest {
    private static final SimpleValueFactory VF = SimpleValueFactory.getInstance();

    @Test
    void resolvesThroughTheWrappedSource() {
        IRI s = VF.createIRI("http://e/s");
        IRI p = VF.createIRI("http://e/p");
        IRI sentinel = VF.createIRI("http://e/sentinel");
        MemoryQuadSource store = new MemoryQuadSource().add(s, p, VF.createLiteral("o"));
        long sId = store.lookup(s);
        long pId = store.lookup(p);
        ParameterSource params = new ParameterSource(store, new long[] { sId },
                Map.of(sentinel, 0));
        assertSame(params, params.resolver(), "while sentinels are looked up, the wrapper looks up");
        assertEquals(ParameterSource.parameterId(0), params.lookup(sentinel));
        ExecContext compiling = new ExecContext(params, false);
        assertEquals(ParameterSource.parameterId(0), compiling.idOf(sentinel));
        assertEquals(s, compiling.resolve(sId));

        params = new ParameterSource(store, new long[] { sId }, Map.of());
        assertSame(store, params.resolver());
        ExecContext ctx = new ExecContext(params, false);
        assertEquals(pId, ctx.idOf(p));
        Value[] values = ctx.resolve(new long[] { sId, pId, sId });
        assertArrayEquals(new Value[] { s, p, s }, values);
        assertArrayEquals(store.resolve(new long[] { sId, pId, sId }), values);
        assertEquals(p, ctx.resolve(pId));
    }
}
