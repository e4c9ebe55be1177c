package net.beaconcontroller.config.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import org.apache.felix.metatype.AD;
import org.apache.felix.metatype.Designate;
import org.apache.felix.metatype.MetaDataReader;
import org.apache.felix.metatype.OCD;

/**
 * Writes the settings part of {@code beacon.properties} and of {@code docs/configuration.md} from the bundles'
 * metatype XML, with the runtime's own words for what each key allows ({@link AttributeSpec}).
 */
final class SettingsDocs {
    /** Where the generated table of docs/configuration.md starts and ends; the text around it is written by hand. */
    static final String BEGIN = "<!-- BEGIN GENERATED from the bundles' metatype: ./mvnw -B -o verify -pl"
            + " launcher/settings-docs -Dbeacon.writeDocs=true -->";
    static final String END = "<!-- END GENERATED -->";
    /** beacon.properties is hand-written up to its first section heading, generated from there on. */
    static final String SECTION = "## ";
    private static final int WIDTH = 118;

    record Row(String key, String defaultText, String allowed, String description) {
    }

    /** One PID of one bundle. */
    record Section(String bundleName, String symbolicName, String pid, List<Row> rows) {
        String title() {
            return bundleName + " (" + symbolicName + ", PID " + pid + ")";
        }
    }

    private SettingsDocs() {
    }

    /**
     * @param bundles     the directory holding one directory per bundle (with {@code META-INF/MANIFEST.MF})
     * @param metatypeDir where a bundle's metatype XML lies, relative to its directory
     */
    static List<Section> read(Path bundles, String metatypeDir) throws IOException {
        var sections = new ArrayList<Section>();
        for (Path bundle : sorted(bundles)) {
            Path dir = bundle.resolve(metatypeDir);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            var headers = manifest(bundle).getMainAttributes();
            String symbolicName = headers.getValue("Bundle-SymbolicName").split(";")[0].strip();
            String name = headers.getValue("Bundle-Name");
            for (Path xml : sorted(dir)) {
                sections.addAll(sections(xml, name == null ? symbolicName : name, symbolicName));
            }
        }
        return sections;
    }

    private static List<Section> sections(Path xml, String name, String symbolicName) throws IOException {
        var metadata = new MetaDataReader().parse(xml.toUri().toURL());
        if (metadata == null) {
            throw new IOException(xml + ": not metatype XML");
        }
        @SuppressWarnings("unchecked")
        Map<String, OCD> ocds = metadata.getObjectClassDefinitions();
        var result = new ArrayList<Section>();
        @SuppressWarnings("unchecked")
        List<Designate> designates = metadata.getDesignates();
        for (var designate : designates) {
            String pid = designate.getPid();
            if (pid == null || !SettingKey.addressable(pid)) {
                continue;
            }
            OCD ocd = ocds.get(designate.getObject().getOcdRef());
            var rows = new ArrayList<Row>();
            @SuppressWarnings("unchecked")
            Map<String, AD> ads = ocd.getAttributeDefinitions();
            for (AD ad : ads.values()) {
                var spec = new AttributeSpec(new FelixAd(ad));
                rows.add(new Row(pid + "." + spec.id(), spec.defaultText(), spec.allowed(), spec.description()));
            }
            result.add(new Section(name, symbolicName, pid, rows));
        }
        return result;
    }

    private static Manifest manifest(Path bundle) throws IOException {
        try (InputStream in = Files.newInputStream(bundle.resolve("META-INF/MANIFEST.MF"))) {
            return new Manifest(in);
        }
    }

    private static List<Path> sorted(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    /** The generated part of beacon.properties: per PID, every key commented out at its default. */
    static String properties(List<Section> sections) {
        var sb = new StringBuilder();
        for (var section : sections) {
            sb.append(SECTION).append(section.title()).append("\n");
            for (var row : section.rows()) {
                sb.append("\n");
                wrap(row.description() + " Allowed: " + row.allowed() + ".").forEach(l -> sb.append(l).append("\n"));
                sb.append("#").append(row.key()).append("=").append(row.defaultText()).append("\n");
            }
            sb.append("\n");
        }
        return sb.toString().stripTrailing() + "\n";
    }

    private static List<String> wrap(String text) {
        var lines = new ArrayList<String>();
        var line = new StringBuilder("#");
        for (String word : text.strip().split("\\s+")) {
            if (line.length() > 1 && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** The generated part of docs/configuration.md: a table per PID. */
    static String table(List<Section> sections) {
        var sb = new StringBuilder();
        for (var section : sections) {
            sb.append("\n### ").append(section.bundleName()).append(" (`").append(section.symbolicName())
                    .append("`, PID `").append(section.pid()).append("`)\n\n");
            sb.append("| key | default | allowed | description |\n|---|---|---|---|\n");
            for (var row : section.rows()) {
                sb.append("| `").append(row.key()).append("` | ").append(cell(row.defaultText())).append(" | ")
                        .append(cell(row.allowed())).append(" | ").append(cell(row.description())).append(" |\n");
            }
        }
        return sb.append("\n").toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replaceAll("\\s+", " ").strip();
    }

    /** beacon.properties with its generated part replaced. */
    static String withProperties(String file, List<Section> sections) {
        int at = file.startsWith(SECTION) ? 0 : file.indexOf("\n" + SECTION);
        String header = at < 0 ? file.stripTrailing() + "\n\n" : file.substring(0, at == 0 ? 0 : at + 1);
        return header + properties(sections);
    }

    /** docs/configuration.md with the text between its markers replaced. */
    static String withTable(String doc, List<Section> sections) {
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no '" + BEGIN + "' ... '" + END + "' markers");
        }
        return doc.substring(0, begin + BEGIN.length()) + "\n" + table(sections) + doc.substring(end);
    }

    /** @return null when equal, else the first line that differs, said plainly */
    static String firstDifference(String name, String actual, String expected) {
        var a = actual.lines().toList();
        var e = expected.lines().toList();
        for (int i = 0; i < Math.max(a.size(), e.size()); i++) {
            String have = i < a.size() ? a.get(i) : "<end of file>";
            String want = i < e.size() ? e.get(i) : "<end of file>";
            if (!have.equals(want)) {
                return name + ":" + (i + 1) + ": the bundles' metatype says '" + want + "' but the file has '" + have
                        + "'";
            }
        }
        return null;
    }
}
