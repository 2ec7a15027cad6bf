# frozen_string_literal: true

# Loaded first by every spec (.rspec: --require spec_helper): lib on the load path, nettyrack
# (jars included) loaded, and the helpers in spec/support.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "nettyrack"

Dir[File.join(__dir__, "support", "**", "*.rb")].sort.each { |helper| require helper }

RSpec.configure do |config|
  config.expect_with(:rspec) { |expectations| expectations.syntax = :expect }
  config.mock_with(:rspec) { |mocks| mocks.verify_partial_doubles = true }
  config.disable_monkey_patching!
  config.example_status_persistence_file_path = ".rspec_status"
end
