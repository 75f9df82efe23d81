package dev.basalt.sail;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

import org.eclipse.rdf4j.model.ModelFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailSource;

/**
 * Creates RDF4J's transaction branches ({@code org.eclipse.rdf4j.sail.base.SailSourceBranch}) over
 * a Basalt source, with Basalt's spill-capable model factory and without auto-flush. The branch
 * keeps a connection's pending changes, gives it SNAPSHOT and SERIALIZABLE semantics and writes
 * its changes into the backing source only when flushed. The class is package-private in
 * sail-base 5.0.3 although its constructors are public, and the only public way to obtain one
 * ({@code BackingSailSource.fork()}) fixes an in-heap model factory; so its public constructor is
 * called reflectively (sail-base is an automatic module, so this also works on the module path).
 */
final class Branches {
    private static final String BRANCH_CLASS = "org.eclipse.rdf4j.sail.base.SailSourceBranch";
    private static final Constructor<?> BRANCH = branchConstructor();

    private Branches() {
    }

    private static Constructor<?> branchConstructor() {
        try {
            Constructor<?> c = Class.forName(BRANCH_CLASS, true, SailSource.class.getClassLoader())
                    .getConstructor(SailSource.class, ModelFactory.class, boolean.class);
            c.setAccessible(true);
            return c;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("Basalt needs " + BRANCH_CLASS + "(SailSource, ModelFactory, boolean) "
                    + "of rdf4j-sail-base 5.0.x; check the RDF4J version on the class path (" + e + ")");
        }
    }

    /** A new branch over {@code backing} whose change sets are created by {@code models}. */
    static SailSource fork(SailSource backing, ModelFactory models) {
        try {
            return (SailSource) BRANCH.newInstance(backing, models, false);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new SailException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new SailException("cannot create a transaction branch: " + e, e);
        }
    }
}
