package dev.basalt.sail.geo;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Random geometries for the GeoSPARQL tests: points (some on and near the antimeridian and the
 * poles), lines, polygons, polygons across the antimeridian, malformed literals and WKT text that is
 * not a {@code geo:wktLiteral}, as features {@code ex:fN geo:asWKT "..."^^geo:wktLiteral} with a
 * category {@code ex:cat}. Not thread-safe (one {@link Random}).
 */
final class GeoData {
    static final String EX = "http://example.org/geo/";
    static final String GEO = "http://www.opengis.net/ont/geosparql#";
    static final String PREFIXES = "PREFIX geo: <" + GEO + "> PREFIX geof: <http://www.opengis.net/def/function/geosparql/> "
            + "PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/> PREFIX ex: <" + EX + "> ";
    static final ValueFactory VF = SimpleValueFactory.getInstance();
    static final IRI AS_WKT = VF.createIRI(GEO, "asWKT");
    static final IRI WKT = VF.createIRI(GEO, "wktLiteral");
    static final IRI CAT = VF.createIRI(EX, "cat");
    private final Random r;

    GeoData(Random r) {
        this.r = r;
    }

    static String fmt(double d) {
        return String.format(Locale.ROOT, "%.6f", d);
    }

    double lon() {
        return switch (r.nextInt(10)) {
            case 0 -> 180 - r.nextDouble() * 2;
            case 1 -> -180 + r.nextDouble() * 2;
            default -> r.nextDouble() * 360 - 180;
        };
    }

    double lat() {
        return r.nextInt(12) == 0 ? (r.nextBoolean() ? 1 : -1) * (88 + r.nextDouble() * 2) : r.nextDouble() * 160 - 80;
    }

    String point() {
        if (r.nextInt(30) == 0) {
            return "POINT(" + (r.nextBoolean() ? "180" : "-180") + " " + fmt(lat()) + ")";
        }
        return "POINT(" + fmt(lon()) + " " + fmt(lat()) + ")";
    }

    /** A box polygon (counter-clockwise) of width and height up to {@code size} degrees, inside -180..180. */
    String box(double size) {
        double w = r.nextDouble() * size;
        double h = r.nextDouble() * size;
        double x0 = Math.max(-180, Math.min(180 - w, lon()));
        double y0 = Math.max(-90, Math.min(90 - h, lat()));
        return box(x0, y0, x0 + w, y0 + h);
    }

    static String box(double x0, double y0, double x1, double y1) {
        return "POLYGON((" + fmt(x0) + " " + fmt(y0) + ", " + fmt(x1) + " " + fmt(y0) + ", " + fmt(x1) + " " + fmt(y1)
                + ", " + fmt(x0) + " " + fmt(y1) + ", " + fmt(x0) + " " + fmt(y0) + "))";
    }

    /** A polygon from east of 170 to west of -170 (spatial4j reads it across the antimeridian). */
    String acrossAntimeridian() {
        double a = 170 + r.nextDouble() * 9;
        double b = -170 - r.nextDouble() * 9;
        double y = r.nextDouble() * 100 - 50;
        double h = 1 + r.nextDouble() * 10;
        return "POLYGON((" + fmt(a) + " " + fmt(y) + ", " + fmt(b) + " " + fmt(y) + ", " + fmt(b) + " " + fmt(y + h)
                + ", " + fmt(a) + " " + fmt(y + h) + ", " + fmt(a) + " " + fmt(y) + "))";
    }

    String line() {
        double x = Math.max(-175, Math.min(175, lon()));
        double y = Math.max(-85, Math.min(85, lat()));
        return "LINESTRING(" + fmt(x) + " " + fmt(y) + ", " + fmt(x + r.nextDouble() * 5 - 2.5) + " "
                + fmt(y + r.nextDouble() * 5 - 2.5) + ")";
    }

    String geometry() {
        return switch (r.nextInt(20)) {
            case 0, 1 -> line();
            case 2, 3 -> box(8);
            case 4 -> acrossAntimeridian();
            default -> point();
        };
    }

    /** An initialized, non-durable Basalt repository in {@code dir}. */
    static SailRepository basalt(File dir) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        SailRepository repo = new SailRepository(new BasaltStore(dir, config));
        repo.init();
        return repo;
    }

    /** An initialized MemoryStore repository: the reference answers come from it. */
    static SailRepository memory() {
        SailRepository repo = new SailRepository(new MemoryStore());
        repo.init();
        return repo;
    }

    /** The rows of a query's ?f and ?g, in the order the store gives them. */
    static List<String> rows(Repository repo, String query) {
        List<String> out = new ArrayList<>();
        try (RepositoryConnection c = repo.getConnection()) {
            for (BindingSet bs : c.prepareTupleQuery(query).evaluate()) {
                out.add("f=" + bs.getValue("f") + " g=" + bs.getValue("g"));
            }
        }
        return out;
    }

    Literal literal(String wkt) {
        return VF.createLiteral(wkt, WKT);
    }

    /** {@code n} features with a geometry each, plus a few malformed and untyped ones. */
    List<Statement> features(int n) {
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IRI f = VF.createIRI(EX, "f" + i);
            Literal g = switch (r.nextInt(60)) {
                case 0 -> literal("POLYGON((1 2, 3 4");
                case 1 -> VF.createLiteral(point());
                default -> literal(geometry());
            };
            out.add(VF.createStatement(f, AS_WKT, g));
            out.add(VF.createStatement(f, CAT, VF.createLiteral(java.math.BigInteger.valueOf(r.nextInt(4)))));
        }
        return out;
    }
}
