# frozen_string_literal: true

# spec/fixtures/contract_app through the Netty door (bin/nettyrack), booted once for
# the whole contract (spec/support/contract, spec/support/contract_doors.rb).
RSpec.describe "the Rack contract through the Netty door" do
  include_examples "the whole Rack contract", :netty
end
