module Nettyrack
  # The gem's version: nettyrack.gemspec, --version, the boot line and the WAR read it.
  VERSION = "0.1.0"
end
