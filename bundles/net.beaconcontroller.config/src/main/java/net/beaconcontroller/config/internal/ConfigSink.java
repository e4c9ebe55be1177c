package net.beaconcontroller.config.internal;

import java.io.IOException;
import java.util.Dictionary;

/** Where validated configurations go: Configuration Admin in the product, a map in tests. */
interface ConfigSink {
    /** Creates or updates the configuration of {@code pid} (nothing happens when it is unchanged). */
    void apply(String pid, Dictionary<String, Object> properties) throws IOException;

    /** Deletes the configuration of {@code pid}, if there is one, so its component stays inactive. */
    void remove(String pid) throws IOException;
}
