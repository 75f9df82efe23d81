package dev.basalt.sail;

import java.io.File;
import java.util.Locale;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Child JVM of {@link GeoIndexTransactionsTest}: opens a durable store and commits one point
 * geometry per transaction ({@code ex:s<i> geo:asWKT "POINT(x 1)"}, inside the test's window),
 * printing {@code committed <i>} after each commit returns, until it is killed.
 */
public final class GeoCrashChild {
    private GeoCrashChild() {
    }

    public static void main(String[] args) {
        SailRepository repo = new SailRepository(new BasaltStore(new File(args[0]), new BasaltStoreConfig()));
        repo.init();
        ValueFactory vf = SimpleValueFactory.getInstance();
        IRI asWkt = vf.createIRI("http://www.opengis.net/ont/geosparql#asWKT");
        IRI wkt = vf.createIRI("http://www.opengis.net/ont/geosparql#wktLiteral");
        try (RepositoryConnection writer = repo.getConnection()) {
            for (int i = 0;; i++) {
                writer.begin();
                writer.add(vf.createIRI("http://example.org/", "s" + i), asWkt,
                        vf.createLiteral(String.format(Locale.ROOT, "POINT(%.4f 1)", 0.5 + (i % 900) / 100.0), wkt));
                writer.commit();
                System.out.println("committed " + i);
                System.out.flush();
            }
        }
    }
}
