/** The firewall's API: its rules, their Floodlight syntax, and the service that keeps and enforces them. */
package net.beaconcontroller.firewall;
