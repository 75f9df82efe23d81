package dev.basalt.sail.geo;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.vocabulary.RDF;

/**
 * The features of {@link GeoSparqlComplianceTest}, shaped like the data of the GeoSPARQL compliance
 * benchmark (Jovanovik, Homburg and Spasić 2021): features {@code my:A ... my:N} of class
 * {@code my:PlaceOfInterest}, each with an exact geometry ({@code my:hasExactGeometry}, also stated
 * as {@code geo:hasDefaultGeometry} and {@code geo:hasGeometry}, since the store does no RDFS
 * entailment) and most with a point geometry ({@code my:hasPointGeometry}), every geometry serialized
 * both as {@code geo:asWKT} and {@code geo:asGML}. The coordinates are this project's own; the
 * relations between the features are the ones the benchmark's requirements need: A and B overlap, C is
 * inside A, D touches A, E crosses A, F is a point inside C, G contains A, H has empty literals, I the
 * WKT empty geometries, J and K are one polygon with and without the CRS84 IRI, L and M one point in
 * EPSG:4326 (latitude first) and in CRS84, and N crosses the antimeridian.
 *
 * <p>Immutable constants; any thread may read them.
 */
final class ComplianceData {
    static final String MY = "http://example.org/ApplicationSchema#";
    static final String PREFIXES = GeoData.PREFIXES + "PREFIX my: <" + MY + "> "
            + "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    static final String CRS84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84";
    static final String EPSG4326 = "http://www.opengis.net/def/crs/EPSG/0/4326";
    static final IRI GML = GeoData.VF.createIRI(GeoData.GEO, "gmlLiteral");

    /** A feature: its letter, its exact geometry's WKT, and its point geometry's WKT (null when it has none). */
    record Feature(String name, String exact, String point) {
    }

    static final List<Feature> FEATURES = List.of(
            new Feature("A", polygon(10, 50, 11, 51), "POINT(10.5 50.5)"),
            new Feature("B", polygon(10.5, 50.5, 11.5, 51.5), "POINT(11 51)"),
            new Feature("C", polygon(10.2, 50.2, 10.4, 50.4), "POINT(10.3 50.3)"),
            new Feature("D", polygon(11, 50, 12, 51), "POINT(11.5 50.5)"),
            new Feature("E", "LINESTRING(9.5 50.5, 11.5 50.6)", null),
            new Feature("F", "POINT(10.3 50.3)", null),
            new Feature("G", polygon(9, 49, 12, 52), "POINT(10.5 50.5)"),
            new Feature("H", "", ""),
            new Feature("I", "LINESTRING EMPTY", "POINT EMPTY"),
            new Feature("J", "<" + CRS84 + "> " + polygon(20, 40, 21, 41), null),
            new Feature("K", polygon(20, 40, 21, 41), null),
            new Feature("L", "<" + EPSG4326 + "> POINT(45.25 30.75)", null),
            new Feature("M", "POINT(30.75 45.25)", null),
            new Feature("N", "POLYGON((179 -1, -179 -1, -179 1, 179 1, 179 -1))", "POINT(179.5 0)"));

    private ComplianceData() {
    }

    static String polygon(double x0, double y0, double x1, double y1) {
        return "POLYGON((" + x0 + " " + y0 + ", " + x1 + " " + y0 + ", " + x1 + " " + y1 + ", " + x0 + " " + y1 + ", " + x0
                + " " + y0 + "))";
    }

    /** The statements of every feature and geometry. */
    static List<Statement> statements() {
        List<Statement> out = new ArrayList<>();
        IRI poi = GeoData.VF.createIRI(MY, "PlaceOfInterest");
        for (Feature f : FEATURES) {
            IRI feature = GeoData.VF.createIRI(MY, f.name());
            out.add(GeoData.VF.createStatement(feature, RDF.TYPE, poi));
            IRI exact = geometry(out, f.name() + "ExactGeom", f.exact());
            out.add(GeoData.VF.createStatement(feature, GeoData.VF.createIRI(MY, "hasExactGeometry"), exact));
            out.add(GeoData.VF.createStatement(feature, GeoData.VF.createIRI(GeoData.GEO, "hasDefaultGeometry"), exact));
            out.add(GeoData.VF.createStatement(feature, GeoData.VF.createIRI(GeoData.GEO, "hasGeometry"), exact));
            if (f.point() != null) {
                IRI point = geometry(out, f.name() + "PointGeom", f.point());
                out.add(GeoData.VF.createStatement(feature, GeoData.VF.createIRI(MY, "hasPointGeometry"), point));
                out.add(GeoData.VF.createStatement(feature, GeoData.VF.createIRI(GeoData.GEO, "hasGeometry"), point));
            }
        }
        return out;
    }

    private static IRI geometry(List<Statement> out, String name, String wkt) {
        IRI g = GeoData.VF.createIRI(MY, name);
        out.add(GeoData.VF.createStatement(g, GeoData.AS_WKT, GeoData.VF.createLiteral(wkt, GeoData.WKT)));
        out.add(GeoData.VF.createStatement(g, GeoData.VF.createIRI(GeoData.GEO, "asGML"),
                GeoData.VF.createLiteral(gml(wkt), GML)));
        return g;
    }

    /** The GML 3.2 form of the WKT geometries above (an empty literal stays empty). */
    static String gml(String wkt) {
        String srs = CRS84;
        String body = wkt;
        if (body.startsWith("<")) {
            srs = body.substring(1, body.indexOf('>'));
            body = body.substring(body.indexOf('>') + 1).trim();
        }
        if (body.isEmpty()) {
            return "";
        }
        String ns = " xmlns:gml=\"http://www.opengis.net/gml/3.2\" srsName=\"" + srs + "\"";
        if (body.endsWith("EMPTY")) {
            String type = body.startsWith("POINT") ? "Point" : "LineString";
            return "<gml:" + type + ns + "/>";
        }
        String coords = body.substring(body.lastIndexOf('(') + 1, body.indexOf(')')).replace(",", "").trim();
        if (body.startsWith("POINT")) {
            return "<gml:Point" + ns + "><gml:pos>" + coords + "</gml:pos></gml:Point>";
        }
        if (body.startsWith("LINESTRING")) {
            return "<gml:LineString" + ns + "><gml:posList>" + coords + "</gml:posList></gml:LineString>";
        }
        return "<gml:Polygon" + ns + "><gml:exterior><gml:LinearRing><gml:posList>" + coords
                + "</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon>";
    }
}
