package net.beaconcontroller.config.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} and {@code beacon.properties} must say what the bundles' metatype says. With
 * {@code -Dbeacon.writeDocs=true} the check rewrites both files instead of failing.
 */
class SettingsDocsTest {
    private static List<SettingsDocs.Section> fixture() throws IOException, URISyntaxException {
        return SettingsDocs.read(Path.of(SettingsDocsTest.class.getResource("/fixture/bundles").toURI()),
                "OSGI-INF/metatype");
    }

    @Test
    void propertiesListEveryKeyCommentedOutAtItsDefaultWithDescriptionAndAllowed() throws Exception {
        assertEquals("""
                ## Example hub (net.example.hub, PID hub)

                # Where packets go. Allowed: one of FLOOD, ALL.
                #hub.output=FLOOD

                ## Example switch (net.example.switch, PID learningswitch)

                # Idle timeout (seconds) of the flows it installs. Allowed: an integer from 0 to 65535.
                #learningswitch.idleTimeout=5

                # Seconds a learned MAC address | is kept. Allowed: an integer of at least 1.
                #learningswitch.macAge=300

                # Write at once. Allowed: true or false.
                #learningswitch.immediate=false

                # Listener names per message type: one key callbackOrdering[TYPE] per type, e.g.
                # callbackOrdering[PACKET_IN]=topology,devicemanager; listeners not named follow in registration order, which is the
                # default. Allowed: a comma-separated list of values.
                #learningswitch.callbackOrdering=
                """, SettingsDocs.properties(fixture()));
    }

    @Test
    void theReferenceHasATablePerPid() throws Exception {
        String table = SettingsDocs.table(fixture());
        assertTrue(table.startsWith("""

                ### Example hub (`net.example.hub`, PID `hub`)

                | key | default | allowed | description |
                |---|---|---|---|
                | `hub.output` | FLOOD | one of FLOOD, ALL | Where packets go. |
                """), table);
        assertTrue(table.contains("| `learningswitch.macAge` | 300 | an integer of at least 1 | Seconds a learned MAC"
                + " address \\| is kept. |\n"), table);
        assertTrue(!table.contains("dotted"), "a PID with dots has no keys and is not documented");
    }

    @Test
    void theHandWrittenPartsStay() throws Exception {
        var sections = fixture();
        String doc = "# Title\n\nProse.\n\n" + SettingsDocs.BEGIN + "\nold table\n" + SettingsDocs.END + "\n\nMore.\n";
        String written = SettingsDocs.withTable(doc, sections);
        assertTrue(written.startsWith("# Title\n\nProse.\n\n" + SettingsDocs.BEGIN + "\n\n### Example hub"), written);
        assertTrue(written.endsWith("|\n\n" + SettingsDocs.END + "\n\nMore.\n"), written);
        String properties = "# Beacon settings.\n# Uncomment a line.\n\n## Old section\n#old.key=1\n";
        assertEquals("# Beacon settings.\n# Uncomment a line.\n\n" + SettingsDocs.properties(sections),
                SettingsDocs.withProperties(properties, sections));
    }

    @Test
    void driftIsNamedByFileLineAndText() throws Exception {
        String good = SettingsDocs.properties(fixture());
        assertNull(SettingsDocs.firstDifference("beacon.properties", good, good));
        String drifted = good.replace("#learningswitch.idleTimeout=5", "#learningswitch.idleTimeout=10");
        assertEquals("beacon.properties:9: the bundles' metatype says '#learningswitch.idleTimeout=5' but the file has"
                + " '#learningswitch.idleTimeout=10'", SettingsDocs.firstDifference("beacon.properties", drifted, good));
    }

    /** The real files against the real bundles (built before this module: it follows them in the reactor). */
    @Test
    void docsAndShippedPropertiesMatchTheBundlesMetatype() throws IOException {
        Path root = repositoryRoot();
        if (!Files.isDirectory(root.resolve("bundles/net.beaconcontroller.core/target/classes"))) {
            fail("the bundles are not built: run the whole build (./mvnw -B verify), not this module alone");
        }
        var sections = SettingsDocs.read(root.resolve("bundles"), "target/classes/OSGI-INF/metatype");
        if (sections.isEmpty()) {
            // Until the bundles declare their settings with metatype, core's ConfigurationDocsTest checks the files.
            System.out.println("SettingsDocsTest: no bundle has metatype yet; docs/configuration.md and"
                    + " beacon.properties were not compared");
            return;
        }
        Path doc = root.resolve("docs/configuration.md");
        Path properties = root.resolve("beacon.properties");
        String docText = Files.readString(doc, StandardCharsets.UTF_8);
        String propertiesText = Files.readString(properties, StandardCharsets.UTF_8);
        String wantDoc = SettingsDocs.withTable(docText, sections);
        String wantProperties = SettingsDocs.withProperties(propertiesText, sections);
        if (Boolean.getBoolean("beacon.writeDocs")) {
            Files.writeString(doc, wantDoc, StandardCharsets.UTF_8);
            Files.writeString(properties, wantProperties, StandardCharsets.UTF_8);
            return;
        }
        var drift = new ArrayList<String>();
        for (String d : new String[] {SettingsDocs.firstDifference("docs/configuration.md", docText, wantDoc),
            SettingsDocs.firstDifference("beacon.properties", propertiesText, wantProperties)}) {
            if (d != null) {
                drift.add(d);
            }
        }
        assertTrue(drift.isEmpty(), () -> "the settings docs drifted from the bundles' metatype:\n  "
                + String.join("\n  ", drift) + "\nRewrite them with: ./mvnw -B -o verify -pl launcher/settings-docs"
                + " -Dbeacon.writeDocs=true (after a full build), then review the diff.");
    }

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("beacon.target"))) {
                return p;
            }
        }
        return fail("no directory containing beacon.target above " + Path.of("").toAbsolutePath());
    }
}
