package dev.basalt.compliance;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.DynamicTestInvocationContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.TestAbortedException;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;

/**
 * Records, per test of a query compliance suite, whether Basalt ran the test's queries fully
 * natively, and after the suite compares that with {@code native-coverage.tsv} (see
 * {@link NativeCoverageFile}): the suite fails when a test listed as native fell back to RDF4J's
 * evaluator (a regression), and prints how to regenerate the file when tests became native, are new
 * or are gone.
 *
 * <p>Attribution: every Basalt store the suites create registers its counters here
 * ({@link #track}); around each test the counters of all registered stores are summed before and
 * after, and the difference is the test's. This is exact because the suites run their tests one at
 * a time in one JVM (surefire's single fork, JUnit's default same-thread execution).
 *
 * <p>With {@code -Dbasalt.compliance.writeCoverage=true} the suite writes its rows to the file
 * instead of comparing, and regenerates {@code docs/native-coverage.md}.
 */
final class NativeCoverage implements InvocationInterceptor, AfterAllCallback {

    static final String WRITE_PROPERTY = "basalt.compliance.writeCoverage";

    private static final List<NativeQueryStats> STORES = new CopyOnWriteArrayList<>();
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NativeCoverage.class);

    /** Counters of one store, or the sum over several, at one moment. */
    record Counters(long plans, long runtimeFallbacks, Map<String, Long> reasons) {
        Counters minus(Counters before) {
            Map<String, Long> diff = new TreeMap<>();
            reasons.forEach((reason, n) -> {
                long d = n - before.reasons.getOrDefault(reason, 0L);
                if (d > 0) {
                    diff.put(reason, d);
                }
            });
            return new Counters(plans - before.plans, runtimeFallbacks - before.runtimeFallbacks, diff);
        }
    }

    /** Counts {@code stats} in the coverage of whatever test runs while its store is used. */
    static void track(NativeQueryStats stats) {
        STORES.add(stats);
    }

    static Counters snapshot() {
        long plans = 0;
        long runtime = 0;
        Map<String, Long> reasons = new TreeMap<>();
        for (NativeQueryStats s : STORES) {
            plans += s.plansCompiled();
            runtime += s.runtimeFallbacks();
            s.fallbackReasons().forEach((reason, n) -> reasons.merge(reason, n, Long::sum));
        }
        return new Counters(plans, runtime, reasons);
    }

    @Override
    public void interceptDynamicTest(Invocation<Void> invocation, DynamicTestInvocationContext invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        record(invocation, extensionContext);
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
            ExtensionContext extensionContext) throws Throwable {
        record(invocation, extensionContext);
    }

    private static void record(Invocation<Void> invocation, ExtensionContext test) throws Throwable {
        Counters before = snapshot();
        try {
            invocation.proceed();
        } catch (TestAbortedException skipped) {
            throw skipped;
        } catch (Throwable failed) {
            rows(test).add(row(test, snapshot().minus(before)));
            throw failed;
        }
        rows(test).add(row(test, snapshot().minus(before)));
    }

    private static NativeCoverageFile.Row row(ExtensionContext test, Counters used) {
        String suite = classContext(test).getRequiredTestClass().getSimpleName();
        if (used.plans() == 0 && used.reasons().isEmpty()) {
            return new NativeCoverageFile.Row(suite, test.getDisplayName(), NativeCoverageFile.NO_QUERY, "");
        }
        if (used.reasons().isEmpty()) {
            return new NativeCoverageFile.Row(suite, test.getDisplayName(), NativeCoverageFile.NATIVE, "");
        }
        List<String> reasons = new ArrayList<>();
        used.reasons().forEach((reason, n) -> reasons.add(n == 1 ? reason : reason + " (x" + n + ")"));
        return new NativeCoverageFile.Row(suite, test.getDisplayName(), NativeCoverageFile.FALLBACK,
                String.join("; ", reasons));
    }

    /** The rows of the test's suite, kept in the suite's (class-level) context. */
    @SuppressWarnings("unchecked")
    private static List<NativeCoverageFile.Row> rows(ExtensionContext test) {
        return classContext(test).getStore(NAMESPACE).getOrComputeIfAbsent("rows", k -> new CopyOnWriteArrayList<>(),
                List.class);
    }

    /** The suite's context: the nearest one with a test class and no test method (dynamic tests have neither). */
    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext c = context;
        while ((c.getTestClass().isEmpty() || c.getTestMethod().isPresent()) && c.getParent().isPresent()) {
            c = c.getParent().get();
        }
        return c;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void afterAll(ExtensionContext context) {
        List<NativeCoverageFile.Row> rows = context.getStore(NAMESPACE).get("rows", List.class);
        if (rows == null || rows.isEmpty()) {
            return;
        }
        String suite = context.getRequiredTestClass().getSimpleName();
        List<NativeCoverageFile.Row> actual = NativeCoverageFile.uniqueNames(rows);
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            NativeCoverageFile.write(suite, actual);
            return;
        }
        Map<String, NativeCoverageFile.Row> expected = new LinkedHashMap<>();
        NativeCoverageFile.readExpected(suite).forEach(r -> expected.put(r.test(), r));
        new NativeCoverageCheck(suite, expected, actual).verify();
    }
}
