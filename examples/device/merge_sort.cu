// Example: a stable sort of structs by one field with strata::DeviceMergeSort::StableSortKeys and a
// comparator of our own. A million employees, each with a department, a salary and their position
// in the input, are sorted in place by department alone: employees of one department compare
// equal, and the stable sort keeps them in their input order. The host checks both.
#include <strata/strata.cuh>

#include "../example_common.cuh"

#include <cstdio>
#include <random>
#include <vector>

//! An employee; `position` is its index in the input, kept to check the sort's stability.
struct employee
{
  int department;
  float salary;
  int position;
};

//! Orders employees by department alone (a strict weak order: those of one department are equivalent).
struct by_department
{
  __device__ bool operator()(const employee& lhs, const employee& rhs) const
  {
    return lhs.department < rhs.department;
  }
};

int main()
{
  example_require_gpu();

  const int num_items       = 1 << 20;
  const int num_departments = 100;
  std::mt19937 generator(2025);
  std::uniform_int_distribution<int> department(0, num_departments - 1);
  std::uniform_real_distribution<float> salary(30000.0f, 150000.0f);
  std::vector<employee> h_employees(num_items);
  for (int i = 0; i < num_items; ++i)
  {
    h_employees[i] = {department(generator), salary(generator), i};
  }

  employee* d_employees = nullptr;
  EXAMPLE_CHECK(cudaMalloc(&d_employees, num_items * sizeof(employee)));
  EXAMPLE_CHECK(cudaMemcpy(d_employees, h_employees.data(), num_items * sizeof(employee), cudaMemcpyHostToDevice));

  // Phase 1: the size query. Phase 2: the sort, in place (asynchronously, on the default stream).
  void* d_temp_storage      = nullptr;
  size_t temp_storage_bytes = 0;
  EXAMPLE_CHECK(strata::DeviceMergeSort::StableSortKeys(d_temp_storage, temp_storage_bytes, d_employees, num_items,
                                                        by_department{}));
  EXAMPLE_CHECK(cudaMalloc(&d_temp_storage, temp_storage_bytes));
  EXAMPLE_CHECK(strata::DeviceMergeSort::StableSortKeys(d_temp_storage, temp_storage_bytes, d_employees, num_items,
                                                        by_department{}));

  std::vector<employee> h_sorted(num_items);
  EXAMPLE_CHECK(cudaMemcpy(h_sorted.data(), d_employees, num_items * sizeof(employee), cudaMemcpyDeviceToHost));
  EXAMPLE_CHECK(cudaFree(d_temp_storage));
  EXAMPLE_CHECK(cudaFree(d_employees));

  // The output must be a permutation of the input (each position once, with its own fields) in
  // non-decreasing department order, the employees of one department by increasing position.
  std::vector<char> seen(num_items, 0);
  bool correct    = true;
  int departments = 0;
  for (int i = 0; i < num_items && correct; ++i)
  {
    const employee& e = h_sorted[i];
    correct           = e.position >= 0 && e.position < num_items && !seen[e.position]
              && e.department == h_employees[e.position].department && e.salary == h_employees[e.position].salary;
    if (correct)
    {
      seen[e.position] = 1;
    }
    if (correct && i > 0)
    {
      const employee& previous = h_sorted[i - 1];
      correct =
          previous.department < e.department || (previous.department == e.department && previous.position < e.position);
    }
    if (correct && (i == 0 || h_sorted[i - 1].department != e.department))
    {
      ++departments;
    }
  }
  std::printf("stable sort of %d employees by department: %d departments, the first employee of department %d was "
              "number %d of the input (%zu bytes of temporary storage): %s\n",
              num_items, departments, h_sorted[0].department, h_sorted[0].position, temp_storage_bytes,
              correct ? "correct" : "WRONG");
  return correct ? 0 : 1;
}
