# frozen_string_literal: true

require_relative "rails_check"
require_relative "pool_check"

module Nettyrack
  # What the loaded app is set up to do badly on parallel threads, said once before serving:
  # Rails' lazy loading, reloading, Rack::Lock and debug logging (RailsCheck), database pools
  # smaller than the worker pool (PoolCheck). Both the nettyrack command (Lifetime) and rackup's
  # handler ask here.
  module BootChecks
    module_function

    # The warning lines, none when all is well; +threads+ is the worker pool's maximum.
    def warnings(threads)
      [*RailsCheck.warnings(threads), *PoolCheck.warnings(threads)]
    end
  end
end
